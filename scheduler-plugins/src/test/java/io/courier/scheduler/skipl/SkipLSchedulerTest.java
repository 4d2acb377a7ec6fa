package io.courier.scheduler.skipl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** SkipL's interface side: registry and parameters, triggers, wake-ups, feasibility (SCHEDULERS.md §8). */
class SkipLSchedulerTest {
    private static final double EPS = 1e-9;

    private static Network network() {
        return Network.builder().host("h1", 100, 100).host("h2", 100, 100).host("h3", 100, 100)
                .link("l1", 100).build();
    }

    private static Flow.Builder flow(long id, long coflow, int src, int dst, double size, int... path) {
        return Flow.builder(FlowId.of(id), CoflowId.of(coflow), src, dst).size(size).path(path);
    }

    @Test
    void registeredWithItsDefaults() {
        CoflowScheduler s = SchedulerRegistry.standard().create("skipl");
        assertTrue(s instanceof SkipLScheduler);
        SkipLScheduler k = (SkipLScheduler) s;
        assertEquals(0.1, k.epoch(), 0.0);
        assertEquals(0.1, k.congestionThreshold(), 0.0);
        assertEquals(1.0, k.silenceTime(), 0.0);
        assertEquals(0.05, k.stability(), 0.0);
        assertEquals("skipl", s.name());
        assertEquals(SchedulerType.RATE_BASED, s.type());
        assertEquals(EnumSet.of(Info.SIZES, Info.MEASURED_RATES, Info.LINK_ESTIMATES), s.needs());
    }

    @Test
    void parametersArePassedThrough() {
        Map<String, String> p = new HashMap<>();
        p.put("epoch", "0.01");
        p.put("congestionThreshold", "0.2");
        p.put("silenceTime", "0");
        p.put("stability", "0.1");
        SkipLScheduler k = (SkipLScheduler) SchedulerRegistry.standard().create("skipl", p);
        assertEquals(0.01, k.epoch(), 0.0);
        assertEquals(0.2, k.congestionThreshold(), 0.0);
        assertEquals(0.0, k.silenceTime(), 0.0);
        assertEquals(0.1, k.stability(), 0.0);
    }

    @Test
    void badParametersAreRejectedWithTheirName() {
        String[][] bad = {
            {"epoch", "0"}, {"epoch", "-0.1"}, {"epoch", "abc"}, {"epoch", "Infinity"}, {"epoch", "NaN"},
            {"congestionThreshold", "0"}, {"congestionThreshold", "-0.1"},
            {"silenceTime", "-1"}, {"silenceTime", "x"},
            {"stability", "0"}, {"stability", "-0.05"},
            {"delta", "0.1"},
        };
        for (String[] b : bad) {
            Map<String, String> p = Collections.singletonMap(b[0], b[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SchedulerRegistry.standard().create("skipl", p), b[0] + "=" + b[1]);
            assertTrue(e.getMessage().contains(b[0]) && e.getMessage().contains("skipl"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new SkipLScheduler(Double.NaN, 0.1, 1, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new SkipLScheduler(0.1, Double.NaN, 1, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new SkipLScheduler(0.1, 0.1, Double.NaN, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new SkipLScheduler(0.1, 0.1, 1, Double.NaN));
    }

    @Test
    void needsSizes() {
        ClusterState s = ClusterState.builder(network()).coflow(Coflow.of(1, 0))
                .flow(flow(1, 1, 0, 1, 100).build()).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SkipLScheduler.withDefaults().schedule(s.withSizesHidden()));
        assertTrue(e.getMessage().contains("SIZES"), e.getMessage());
    }

    /** {@code after}, made on {@code state}, gives every unfinished flow the rate {@code before} gave it. */
    private static void assertStands(Decision before, ClusterState state, Decision after) {
        for (Flow f : state.flows()) {
            if (!f.finished()) {
                assertEquals(before.rateOf(f.id()), after.rateOf(f.id()), 0.0, f.id() + " at t=" + state.now());
            }
        }
    }

    /** No arrival, no departure, no estimate change: the previous decision stands, even mid-epoch. */
    @Test
    void reschedulesOnlyWhenTriggered() {
        SkipLScheduler k = SkipLScheduler.withDefaults();
        Network n = network();
        ClusterState s0 = ClusterState.builder(n).now(0).coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .flow(flow(1, 1, 0, 1, 100, 0).build()).flow(flow(2, 2, 0, 2, 300).build()).build();
        Decision d0 = k.schedule(s0);
        assertEquals(100, d0.rateOf(FlowId.of(1)), EPS); // τ 1 first, then C2 has no room on up(h1)
        assertEquals(0, d0.rateOf(FlowId.of(2)), 0.0);
        assertEquals(0.1, k.nextWakeup(s0, d0), EPS);
        // t = 0.05 (between measurements), but the sizes now favour C2: no trigger, same decision.
        ClusterState s1 = ClusterState.builder(n).now(0.05).coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .flow(flow(1, 1, 0, 1, 100, 0).sent(5).measuredRate(100).lastDesiredRate(100).build())
                .flow(flow(2, 2, 0, 2, 300).sent(250).measuredRate(0).lastDesiredRate(0).build()).build();
        assertStands(d0, s1, k.schedule(s1));
        assertEquals(0.1, k.nextWakeup(s1, d0), EPS); // the measurement grid does not move
        // t = 0.1: a measurement instant; the link is not congested (first measurement): same decision.
        ClusterState s2 = ClusterState.builder(n).now(0.1).coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .flow(flow(1, 1, 0, 1, 100, 0).sent(10).measuredRate(100).lastDesiredRate(100).build())
                .flow(flow(2, 2, 0, 2, 300).sent(250).measuredRate(0).lastDesiredRate(0).build()).build();
        assertStands(d0, s2, k.schedule(s2));
        assertEquals(0.2, k.nextWakeup(s2, d0), EPS);
        // t = 0.12: C3 (h2→h1, τ 0.1) arrives: reschedule. C2 (τ 0.5) now goes before C1 (τ 0.88).
        ClusterState s3 = ClusterState.builder(n).now(0.12).coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .coflow(Coflow.of(3, 0.12))
                .flow(flow(1, 1, 0, 1, 100, 0).sent(12).measuredRate(100).lastDesiredRate(100).build())
                .flow(flow(2, 2, 0, 2, 300).sent(250).measuredRate(0).lastDesiredRate(0).build())
                .flow(flow(3, 3, 1, 0, 10).build()).build();
        Decision d3 = k.schedule(s3);
        assertNotSame(d0, d3);
        assertEquals(100, d3.rateOf(FlowId.of(2)), EPS);
        assertEquals(0, d3.rateOf(FlowId.of(1)), 0.0);
        assertEquals(0.2, k.nextWakeup(s3, d3), EPS);
    }

    @Test
    void noExtraLinksNoWakeups() {
        Network n = Network.uniform(2, 1);
        ClusterState s = ClusterState.builder(n).coflow(Coflow.of(1, 0)).flow(Flow.of(1, 1, 0, 1, 5)).build();
        SkipLScheduler k = SkipLScheduler.withDefaults();
        Decision d = k.schedule(s);
        assertEquals(1, d.rateOf(FlowId.of(1)), EPS);
        assertEquals(Double.POSITIVE_INFINITY, k.nextWakeup(s, d), 0.0);
    }

    @Test
    void oneInstanceOneNetwork() {
        SkipLScheduler k = SkipLScheduler.withDefaults();
        k.schedule(ClusterState.builder(network()).coflow(Coflow.of(1, 0)).flow(flow(1, 1, 0, 1, 1).build()).build());
        assertEquals(100, k.availableBandwidth(0), 0.0);
        assertThrows(IllegalArgumentException.class, () -> k.availableBandwidth(1));
        ClusterState other = ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 1, 1)).build();
        assertThrows(IllegalStateException.class, () -> k.schedule(other));
    }

    /**
     * Whatever the measurements (including noise above the capacity), no decision exceeds a port's
     * capacity or a link's estimate, and an estimate never exceeds its link's capacity. Random fabrics
     * and coflows; flows progress, finish, and report random throughputs.
     */
    @Test
    void decisionsNeverExceedCapacity() {
        Random rnd = new Random(20240517L);
        for (int run = 0; run < 40; run++) {
            Network.Builder nb = Network.builder();
            int hosts = 2 + rnd.nextInt(4);
            for (int h = 0; h < hosts; h++) {
                nb.host("h" + h, 1 + rnd.nextInt(100), 1 + rnd.nextInt(100));
            }
            int links = 1 + rnd.nextInt(3);
            for (int l = 0; l < links; l++) {
                nb.link("l" + l, 1 + rnd.nextInt(100));
            }
            Network n = nb.build();
            List<Coflow> coflows = new ArrayList<>();
            List<Flow> flows = new ArrayList<>();
            int nCoflows = 1 + rnd.nextInt(4);
            for (int c = 1; c <= nCoflows; c++) {
                coflows.add(Coflow.of(c, rnd.nextInt(3)));
                int width = 1 + rnd.nextInt(4);
                for (int w = 0; w < width; w++) {
                    int[] path = rnd.nextBoolean() ? new int[0] : new int[] {rnd.nextInt(links)};
                    flows.add(flow(flows.size() + 1, c, rnd.nextInt(hosts), rnd.nextInt(hosts),
                            1 + rnd.nextInt(500), path).build());
                }
            }
            SkipLScheduler k = new SkipLScheduler(0.1, 0.05 + rnd.nextDouble() * 0.2, rnd.nextDouble() * 2,
                    0.05 + rnd.nextDouble());
            Map<FlowId, Double> last = new HashMap<>();
            for (int step = 0; step < 30; step++) {
                ClusterState.Builder b = ClusterState.builder(n).now(0.05 * step).coflows(coflows);
                for (int i = 0; i < flows.size(); i++) {
                    Flow f = flows.get(i);
                    Double desired = last.get(f.id());
                    Flow.Builder fb = f.toBuilder();
                    if (desired != null) {
                        double m = desired * rnd.nextDouble() * 1.5;
                        double sent = Math.min(f.size(), f.sent() + m * 0.05);
                        fb.sent(sent).finished(f.finished() || sent >= f.size() || rnd.nextInt(20) == 0)
                                .lastDesiredRate(desired).measuredRate(m);
                    }
                    flows.set(i, fb.build());
                    b.flow(flows.get(i));
                }
                ClusterState s = b.build();
                Decision d = k.schedule(s);
                double[] used = new double[n.resourceCount()];
                last.clear();
                for (int f = 0; f < s.flowCount(); f++) {
                    if (s.flow(f).finished()) {
                        continue;
                    }
                    double r = d.rateOf(s.flow(f).id());
                    last.put(s.flow(f).id(), r);
                    for (int p : s.resourcesOf(f)) {
                        used[p] += r;
                    }
                }
                for (int p = 0; p < used.length; p++) {
                    double limit = n.isLink(p) ? k.availableBandwidth(p - 2 * hosts) : n.capacity(p);
                    assertTrue(limit <= n.capacity(p), n.resourceName(p) + " estimate above capacity");
                    assertTrue(used[p] <= limit * (1 + 1e-9) + 1e-12,
                            "run " + run + " step " + step + ": " + n.resourceName(p) + " carries " + used[p]
                                    + " > " + limit);
                }
            }
        }
    }
}
