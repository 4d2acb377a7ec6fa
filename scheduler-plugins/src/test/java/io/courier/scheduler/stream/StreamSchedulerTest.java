package io.courier.scheduler.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.CoflowScheduler.Enforcement;
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
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Scenario;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamSchedulerTest {
    private static final double MB = 1048576.0;

    private static CoflowScheduler create(String... keyValues) {
        Map<String, String> p = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return SchedulerRegistry.standard().create("stream", p);
    }

    private static void assertRate(double expectedMbPerSecond, double actualBytesPerSecond, String what) {
        assertEquals(expectedMbPerSecond * MB, actualBytesPerSecond, 1e-9 * MB, what);
    }

    // ---------------------------------------------------------------- T-STREAM-3 (E2 enforcement)

    /**
     * T-STREAM-3 with 1 MB/s ports. "big" (e→d) runs alone for 30 s, so its receiver has demoted it to level 2
     * (x = 30 MB, ratio 0.344); "small" (a→d 1 MB, b→d 2 MB) arrives at 30 s in level 0. The spec's last sentence,
     * "c2 gets 0.5 as soon as one c1 flow finishes", needs the surviving c1 flow to be held at 0.5 elsewhere: here
     * up(b) has 0.5 MB/s ({@link #tStream3UnitPortsPureBigSwitch} shows the all-unit-capacity case).
     */
    private static Scenario tStream3(double upB) {
        return Scenario.withCapacity(MB).hosts("a", "b", "d", "e").hostCapacity("b", upB * MB)
                .coflow("big", 0).flow("E", "e", "d", 100 * MB)
                .coflow("small", 30).flow("A", "a", "d", MB).flow("B", "b", "d", 2 * MB)
                .build();
    }

    @Test
    void tStream3StrictClassesWithMaxMinInside() {
        Scenario sc = tStream3(0.5);
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, create("epoch", "1"), 40);
        Decision d = r.decisionAt(30.5);
        assertEquals(Integer.valueOf(2), d.priorities().get(sc.flow("E")));
        assertEquals(Integer.valueOf(0), d.priorities().get(sc.flow("A")));
        assertEquals(Integer.valueOf(0), d.priorities().get(sc.flow("B")));
        assertEquals(sc.coflow("small"), d.coflowOrder().get(0));
        assertRate(0.5, r.rateAt(30.5, "A"), "c1 flow a->d");
        assertRate(0.5, r.rateAt(30.5, "B"), "c1 flow b->d");
        assertRate(0.0, r.rateAt(30.5, "E"), "c2 flow e->d");
        assertEquals(32.0, r.flowFinish("A"), 1e-9);
        assertRate(0.5, r.rateAt(32.5, "E"), "c2 once a c1 flow finished");
        assertRate(0.5, r.rateAt(32.5, "B"), "c1's remaining flow, limited by up(b)");
        assertEquals(4.0, r.cct("small"), 1e-9);
        assertRate(1.0, r.rateAt(34.5, "E"), "c2 alone again");
    }

    @Test
    void tStream3UnitPortsPureBigSwitch() {
        // With every port at 1 MB/s the surviving c1 flow takes all of down(d): c2 waits for the whole of c1.
        Scenario sc = tStream3(1.0);
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, create("epoch", "1"), 40);
        assertRate(0.5, r.rateAt(30.5, "A"), "a->d");
        assertRate(0.0, r.rateAt(30.5, "E"), "e->d");
        assertRate(1.0, r.rateAt(32.5, "B"), "b->d alone in class 0");
        assertRate(0.0, r.rateAt(32.5, "E"), "e->d still blocked");
        assertEquals(33.0, r.finish("small"), 1e-9);
        assertRate(1.0, r.rateAt(33.5, "E"), "e->d after c1");
    }

    @Test
    void starvationRulePromotesTheBlockedSubCoflowStepByStep() {
        Scenario sc = Scenario.withCapacity(MB).hosts("a", "b", "d", "e").hostCapacity("b", 0.5 * MB)
                .coflow("big", 0).flow("E", "e", "d", 100 * MB)
                .coflow("small", 30).flow("A", "a", "d", 3 * MB).flow("B", "b", "d", 2 * MB)
                .build();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc,
                create("epoch", "1", "starvation", "true", "starvationTimer", "1"), 34);
        assertEquals(Integer.valueOf(2), r.decisionAt(30.5).priorities().get(sc.flow("E")));
        assertRate(0.0, r.rateAt(30.5, "E"), "blocked since t=30");
        assertEquals(Integer.valueOf(1), r.decisionAt(31.5).priorities().get(sc.flow("E")), "1 s stalled: up 1");
        assertRate(0.0, r.rateAt(31.5, "E"), "level 1 is still below the level-0 flows");
        assertEquals(Integer.valueOf(0), r.decisionAt(32.5).priorities().get(sc.flow("E")), "2 s stalled: up 2");
        assertRate(1.0 / 3, r.rateAt(32.5, "E"), "max-min with a and b in class 0");
        assertRate(1.0 / 3, r.rateAt(32.5, "A"), "a->d shares class 0");
        assertEquals(Integer.valueOf(2), r.decisionAt(33.5).priorities().get(sc.flow("E")), "bytes arrived: reset");
        assertRate(0.0, r.rateAt(33.5, "E"), "back in level 2");
    }

    // ---------------------------------------------------------------- receiver-local equivalence

    private static Flow flow(long id, long coflow, int src, int dst, double sentMb, boolean finished) {
        return Flow.builder(FlowId.of(id), CoflowId.of(coflow), src, dst).size(100 * MB).sent(sentMb * MB)
                .finished(finished).build();
    }

    /**
     * Many-to-one coflows, where a receiver's information is the whole coflow: hosts 0..9 send; coflow 1 → host 10
     * (x = 30 MB, 5 of 10 finished: row f), 2 → 11 (60 MB: row e), 3 → 12 (20 MB: row c), 4 → 13 (30 MB: row d),
     * 5 → 10 (2 flows, nothing yet: row a).
     */
    private static ClusterState manyToOne(double now) {
        ClusterState.Builder b = ClusterState.builder(Network.uniform(14, MB)).now(now);
        for (int c = 1; c <= 5; c++) {
            b.coflow(Coflow.of(c, 0));
        }
        long id = 1;
        for (int s = 0; s < 10; s++) {
            b.flow(flow(id++, 1, s, 10, s < 5 ? 4 : 2, s < 5));
            b.flow(flow(id++, 2, s, 11, 6, false));
            b.flow(flow(id++, 3, s, 12, 2, false));
            b.flow(flow(id++, 4, s, 13, 3, false));
        }
        b.flow(flow(id++, 5, 0, 10, 0, false));
        b.flow(flow(id, 5, 1, 10, 0, false));
        return b.build();
    }

    @Test
    void schedulerEqualsTheFormulaOnCompleteReceiverViews() {
        ClusterState state = manyToOne(0).withSizesHidden();
        StreamScheduler s = StreamScheduler.withDefaults();
        Decision d = s.schedule(state);
        StreamPriority formula = StreamPriority.defaults();
        // The views a receiver builds by itself: x, n, n_fin of its only sub-coflow of each coflow; S = 0, m = 1.
        Map<Long, SubCoflowObservation> views = new HashMap<>();
        views.put(1L, StreamPriorityTest.obs(30, 10, 5, 0, 1));
        views.put(2L, StreamPriorityTest.obs(60, 10, 0, 0, 1));
        views.put(3L, StreamPriorityTest.obs(20, 10, 0, 0, 1));
        views.put(4L, StreamPriorityTest.obs(30, 10, 0, 0, 1));
        views.put(5L, StreamPriorityTest.obs(0, 2, 0, 0, 1));
        Map<Long, Integer> table = new HashMap<>();
        table.put(1L, 1);
        table.put(2L, 3);
        table.put(3L, 1);
        table.put(4L, 2);
        table.put(5L, 0);
        int checked = 0;
        for (Flow f : state.flows()) {
            if (f.finished()) {
                assertFalse(d.priorities().containsKey(f.id()), "finished flows get no class");
                continue;
            }
            long c = f.coflow().value();
            assertEquals(Integer.valueOf(formula.level(views.get(c), 0)), d.priorities().get(f.id()), f.toString());
            assertEquals(table.get(c), d.priorities().get(f.id()), f.toString());
            checked++;
        }
        assertEquals(37, checked);
        List<CoflowId> expectedOrder = new ArrayList<>();
        for (long c : new long[] {5, 1, 3, 4, 2}) {
            expectedOrder.add(CoflowId.of(c));
        }
        assertEquals(expectedOrder, d.coflowOrder(), "by level, then (arrival, id)");
        assertEquals(0.01, s.nextWakeup(state, d), 1e-15);
        assertEquals(2, s.receiver(10).size(), "host 10 receives coflows 1 and 5");
    }

    @Test
    void receiverViewsMatchWhatEachReceiverKnows() {
        ClusterState state = manyToOne(0);
        ReceiverViews v = ReceiverViews.of(state, Collections.<CoflowId, ReceivedBytes>emptyMap(), null);
        List<SubCoflowObservation> host10 = v.byReceiver().get(10);
        assertEquals(2, host10.size());
        SubCoflowObservation c1 = host10.get(0);
        assertEquals(CoflowId.of(1), c1.coflow());
        assertEquals(30 * MB, c1.bytesReceived(), 1e-6);
        assertEquals(10, c1.flowsSeen());
        assertEquals(5, c1.flowsFinished());
        assertEquals(0.0, c1.relayedBytes());
        assertEquals(1, c1.subCoflows());
        assertEquals(CoflowId.of(5), host10.get(1).coflow());
        assertEquals(2, host10.get(1).flowsSeen());
        assertEquals(Collections.singletonMap(10, 30 * MB), v.received().get(CoflowId.of(1)).asMap());
    }

    /** A relay is read by index in its own host order, by host in another one (NaN for a host it does not know). */
    @Test
    void receivedBytesAreReadByHost() {
        ReceivedBytes relay = new ReceivedBytes(new int[] {7, 3, 9}, new double[] {1, 2, 3});
        assertArrayEquals(new double[] {1, 2, 3}, relay.inOrderOf(new int[] {7, 3, 9}), 0.0);
        assertArrayEquals(new double[] {3, 1, Double.NaN, 2}, relay.inOrderOf(new int[] {9, 7, 4, 3}), 0.0);
        ReceivedBytes moving = new ReceivedBytes(new int[] {7, 3}, new double[] {1, 2}, new double[] {10, 20});
        assertArrayEquals(new double[] {1.5, 3}, moving.after(0.05).inOrderOf(new int[] {7, 3}), 1e-12);
    }

    /** One coflow: s0→r1, s0→r2 share sender s0; s1→r3 shares no sender. Hosts s0=0, s1=1, r1..r3=2..4. */
    private static ClusterState relayCoflow(double now, double x1, double x2, double x3) {
        return ClusterState.builder(Network.uniform(5, MB)).now(now).coflow(Coflow.of(1, 0))
                .flow(flow(1, 1, 0, 2, x1, false)).flow(flow(2, 1, 0, 3, x2, false))
                .flow(flow(3, 1, 1, 4, x3, false)).build();
    }

    @Test
    void informationRelayUsesPeersThroughSharedSendersOneEpochLate() {
        ReceiverViews first = ReceiverViews.of(relayCoflow(0, 30, 30, 30),
                Collections.<CoflowId, ReceivedBytes>emptyMap(), null);
        for (List<SubCoflowObservation> os : first.byReceiver().values()) {
            assertEquals(0.0, os.get(0).relayedBytes(), "nothing relayed before the first epoch");
        }
        ReceiverViews second = ReceiverViews.of(relayCoflow(0.01, 31, 35, 40), first.received(), null);
        assertEquals(30 * MB, second.byReceiver().get(2).get(0).relayedBytes(), 1e-6, "r1 hears r2's x of epoch 1");
        assertEquals(30 * MB, second.byReceiver().get(3).get(0).relayedBytes(), 1e-6, "r2 hears r1's x of epoch 1");
        assertEquals(0.0, second.byReceiver().get(4).get(0).relayedBytes(), "r3 shares no sender");

        StreamScheduler s = StreamScheduler.withDefaults();
        Decision d1 = s.schedule(relayCoflow(0, 30, 30, 30).withSizesHidden());
        for (long f = 1; f <= 3; f++) {
            assertEquals(Integer.valueOf(2), d1.priorities().get(FlowId.of(f)), "x = 30, n = 1: ratio 0.344");
        }
        Decision d2 = s.schedule(relayCoflow(0.01, 31, 35, 40).withSizesHidden());
        // r1: X = 30 + 31, ratio (10 + 10/31)/61 = 0.169 -> 3; r2: (10 + 10/35)/65 = 0.158 -> 3;
        // r3: no relay, (10 + 10/40)/40 = 0.256 -> ceil(1.025) = 2.
        assertEquals(Integer.valueOf(3), d2.priorities().get(FlowId.of(1)));
        assertEquals(Integer.valueOf(3), d2.priorities().get(FlowId.of(2)));
        assertEquals(Integer.valueOf(2), d2.priorities().get(FlowId.of(3)));
    }

    /**
     * Who relays to whom is kept from epoch to epoch while a coflow's flows stay the same, derived again when they
     * change (here a flow s1→r1 appears: r1 now also hears r3, and r3 hears r1), and dropped when the coflow leaves.
     */
    @Test
    void relayShapesAreKeptWhileTheFlowsStayAndRederivedWhenTheyChange() {
        SubCoflowShapes shapes = new SubCoflowShapes();
        ClusterState epoch1 = relayCoflow(0, 30, 30, 30);
        ReceiverViews first = ReceiverViews.of(epoch1, Collections.<CoflowId, ReceivedBytes>emptyMap(), null,
                shapes);
        SubCoflowShapes.Shape kept = shapes.of(epoch1, 0);
        shapes.epochDone();
        assertSame(kept, shapes.of(relayCoflow(0.01, 31, 35, 40), 0), "same flows: the shape is kept");
        shapes.epochDone();
        ClusterState wider = ClusterState.builder(Network.uniform(5, MB)).now(0.01).coflow(Coflow.of(1, 0))
                .flow(flow(1, 1, 0, 2, 31, false)).flow(flow(2, 1, 0, 3, 35, false))
                .flow(flow(3, 1, 1, 4, 40, false)).flow(flow(4, 1, 1, 2, 1, false)).build();
        ReceiverViews second = ReceiverViews.of(wider, first.received(), null, shapes);
        assertEquals(60 * MB, second.byReceiver().get(2).get(0).relayedBytes(), 1e-6, "r1 hears r2 and r3");
        assertEquals(30 * MB, second.byReceiver().get(3).get(0).relayedBytes(), 1e-6, "r2 hears r1");
        assertEquals(30 * MB, second.byReceiver().get(4).get(0).relayedBytes(), 1e-6, "r3 now hears r1");
        assertEquals(1, shapes.kept());
        ReceiverViews.of(ClusterState.builder(Network.uniform(5, MB)).now(0.02).build(), second.received(), null,
                shapes);
        assertEquals(0, shapes.kept(), "the coflow left");
    }

    @Test
    void stallsAreDetectedFromBytesReceivedBetweenEpochs() {
        ReceiverViews first = ReceiverViews.of(relayCoflow(0, 30, 30, 30),
                Collections.<CoflowId, ReceivedBytes>emptyMap(), Collections.<FlowId, Double>emptyMap());
        assertFalse(first.byReceiver().get(2).get(0).stalled(), "no history yet");
        ReceiverViews second = ReceiverViews.of(relayCoflow(0.01, 30, 31, 30), first.received(), first.sent());
        assertTrue(second.byReceiver().get(2).get(0).stalled());
        assertFalse(second.byReceiver().get(3).get(0).stalled());
        assertTrue(second.byReceiver().get(4).get(0).stalled());
    }

    // ---------------------------------------------------------------- epochs, memory

    @Test
    void levelsChangeOnlyAtEpochsAndNewSubCoflowsStartInClassZero() {
        StreamScheduler s = StreamScheduler.withDefaults();
        ClusterState t0 = ClusterState.builder(Network.uniform(4, MB)).now(0).coflow(Coflow.of(1, 0))
                .flow(flow(1, 1, 0, 2, 5, false)).build().withSizesHidden(); // x = 5, n = 1: ratio 1
        assertEquals(Integer.valueOf(0), s.schedule(t0).priorities().get(FlowId.of(1)));
        // Mid-epoch (an arrival): flow 1 has 60 MB by now, but its level waits for the epoch.
        ClusterState mid = ClusterState.builder(Network.uniform(4, MB)).now(0.005)
                .coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0.005))
                .flow(flow(1, 1, 0, 2, 60, false)).flow(flow(2, 2, 1, 2, 0, false)).build().withSizesHidden();
        Decision dm = s.schedule(mid);
        assertEquals(Integer.valueOf(0), dm.priorities().get(FlowId.of(1)));
        assertEquals(Integer.valueOf(0), dm.priorities().get(FlowId.of(2)));
        assertEquals(0.01, s.nextWakeup(mid, dm), 1e-15);
        ClusterState t1 = ClusterState.builder(Network.uniform(4, MB)).now(0.01)
                .coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0.005))
                .flow(flow(1, 1, 0, 2, 61, false)).flow(flow(2, 2, 1, 2, 1, false)).build().withSizesHidden();
        Decision d1 = s.schedule(t1);
        assertEquals(Integer.valueOf(3), d1.priorities().get(FlowId.of(1)), "x = 61, n = 1: ratio 0.167");
        assertEquals(Integer.valueOf(0), d1.priorities().get(FlowId.of(2)));
        assertEquals(0.02, s.nextWakeup(t1, d1), 1e-15);
    }

    @Test
    void finishedCoflowsAreForgotten() {
        StreamScheduler s = StreamScheduler.withDefaults();
        s.schedule(manyToOne(0).withSizesHidden());
        assertTrue(s.receiver(10).knows(CoflowId.of(1)));
        // Coflows 1, 2 and 3 completed; 4 and 5 remain.
        ClusterState.Builder b = ClusterState.builder(Network.uniform(14, MB)).now(0.01)
                .coflow(Coflow.of(4, 0)).coflow(Coflow.of(5, 0));
        for (int src = 0; src < 10; src++) {
            b.flow(flow(100 + src, 4, src, 13, 3.1, false));
        }
        b.flow(flow(200, 5, 0, 10, 0.5, false));
        s.schedule(b.build().withSizesHidden());
        assertFalse(s.receiver(10).knows(CoflowId.of(1)));
        assertTrue(s.receiver(10).knows(CoflowId.of(5)));
        assertNull(s.receiver(11), "host 11 receives nothing any more");
        assertNull(s.receiver(12));
        assertEquals(2, s.receiver(13).levelOf(CoflowId.of(4)));
    }

    // ---------------------------------------------------------------- information hiding

    @Test
    void decisionDoesNotDependOnSizes() {
        StreamScheduler a = StreamScheduler.withDefaults();
        StreamScheduler b = StreamScheduler.withDefaults();
        for (double now : new double[] {0.0, 0.01}) {
            ClusterState small = manyToOne(now);
            ClusterState.Builder other = ClusterState.builder(small.network()).now(now).coflows(small.coflows());
            for (Flow f : small.flows()) {
                other.flow(f.toBuilder().size(f.sent() + 1000 * MB * (1 + f.id().value())).build());
            }
            Decision da = a.schedule(small.viewFor(a.needs()));
            Decision db = b.schedule(other.build().viewFor(b.needs()));
            assertEquals(da.priorities(), db.priorities());
            assertEquals(da.coflowOrder(), db.coflowOrder());
        }
    }

    // ---------------------------------------------------------------- registry and parameters

    @Test
    void registeredWithTheSpecDefaults() {
        CoflowScheduler s = create();
        assertTrue(s instanceof StreamScheduler);
        StreamScheduler st = (StreamScheduler) s;
        assertEquals("stream", st.name());
        assertEquals(SchedulerType.ORDER_BASED, st.type());
        assertEquals(EnumSet.of(Info.RECEIVER_LOCAL_ONLY), st.needs());
        assertEquals(Enforcement.PRIORITY_CLASS_MAX_MIN, st.enforcement());
        assertEquals(4, st.formula().queues());
        assertEquals(10.0, st.formula().tauMb());
        assertEquals(1.0, st.formula().alpha());
        assertEquals(1.0, st.formula().beta());
        assertEquals(TauMode.CONSTANT, st.formula().tauMode());
        assertEquals(0.01, st.epoch());
        assertFalse(st.aging().enabled());

        StreamScheduler custom = (StreamScheduler) create("queues", "8", "tau", "5", "alpha", "2", "beta", "0",
                "tauMode", "current-level", "epoch", "0.1", "starvation", "true", "starvationTimer", "0.02");
        assertEquals(8, custom.formula().queues());
        assertEquals(5.0, custom.formula().tauMb());
        assertEquals(2.0, custom.formula().alpha());
        assertEquals(0.0, custom.formula().beta());
        assertEquals(TauMode.CURRENT_LEVEL, custom.formula().tauMode());
        assertEquals(0.1, custom.epoch());
        assertEquals(0.02, custom.aging().timer());
    }

    @Test
    void badParametersAreRejectedNamingTheParameter() {
        String[][] bad = {
            {"queues", "0"}, {"queues", "65"}, {"queues", "2.5"}, {"tau", "0"}, {"tau", "-10"}, {"tau", "NaN"},
            {"alpha", "0"}, {"beta", "-0.5"}, {"epoch", "0"}, {"epoch", "x"}, {"starvation", "yes"},
            {"starvationTimer", "0"}, {"tauMode", "per-level"},
        };
        for (String[] kv : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> create(kv[0], kv[1]),
                    kv[0] + "=" + kv[1]);
            assertTrue(e.getMessage().contains("'" + kv[0] + "'") && e.getMessage().contains("stream"),
                    e.getMessage());
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> create("K", "4"));
        assertTrue(unknown.getMessage().contains("queues"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new StreamScheduler(StreamPriority.defaults(), 0, StarvationAging.off()));
    }
}
