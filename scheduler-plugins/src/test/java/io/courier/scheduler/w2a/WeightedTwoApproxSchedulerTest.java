package io.courier.scheduler.w2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.WeightedFixtures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WeightedTwoApproxSchedulerTest {
    private static final double EPS = 1e-9;

    private static List<CoflowId> ids(Scenario sc, String... names) {
        List<CoflowId> out = new ArrayList<>();
        for (String n : names) {
            out.add(sc.coflow(n));
        }
        return out;
    }

    /** Runs {@code sc} with W2A and returns the scheduler, so its γ can be inspected. */
    private static WeightedTwoApproxScheduler runW2a(Scenario sc, ExactFluidLoop.Result[] out) {
        WeightedTwoApproxScheduler s = new WeightedTwoApproxScheduler();
        out[0] = ExactFluidLoop.run(sc, s);
        return s;
    }

    @Test
    void tW2a1WeightsTwoOne() {
        Scenario sc = WeightedFixtures.fig3(2, 1);
        ExactFluidLoop.Result[] r = new ExactFluidLoop.Result[1];
        WeightedTwoApproxScheduler s = runW2a(sc, r);
        assertEquals(ids(sc, "C2", "C1"), s.gamma());
        assertEquals(6.0, r[0].cct("C1"), EPS);
        assertEquals(1.0, r[0].cct("C2"), EPS);
        assertEquals(13.0, r[0].weightedCct(), EPS);
        // Importance first (C1, C2), the paper's comparison: C1 = 5, C2 = 6, WCCT 16.
        ExactFluidLoop.Result other = ExactFluidLoop.run(sc, new FixedOrder(ids(sc, "C1", "C2")));
        assertEquals(5.0, other.cct("C1"), EPS);
        assertEquals(6.0, other.cct("C2"), EPS);
        assertEquals(16.0, other.weightedCct(), EPS);
    }

    @Test
    void tW2a1WeightsSixOne() {
        Scenario sc = WeightedFixtures.fig3(6, 1);
        ExactFluidLoop.Result[] r = new ExactFluidLoop.Result[1];
        WeightedTwoApproxScheduler s = runW2a(sc, r);
        assertEquals(ids(sc, "C1", "C2"), s.gamma());
        assertEquals(5.0, r[0].cct("C1"), EPS);
        assertEquals(6.0, r[0].cct("C2"), EPS);
        assertEquals(36.0, r[0].weightedCct(), EPS);
        ExactFluidLoop.Result other = ExactFluidLoop.run(sc, new FixedOrder(ids(sc, "C2", "C1")));
        assertEquals(37.0, other.weightedCct(), EPS);
    }

    @Test
    void tW2a2S3UnitWeights() {
        Scenario sc = Fixtures.s3();
        ExactFluidLoop.Result[] r = new ExactFluidLoop.Result[1];
        WeightedTwoApproxScheduler s = runW2a(sc, r);
        assertEquals(ids(sc, "C2", "C3", "C1"), s.gamma());
        assertEquals(1.0, r[0].cct("C2"), EPS);
        assertEquals(3.0, r[0].cct("C3"), EPS);
        assertEquals(4.0, r[0].cct("C1"), EPS);
        assertEquals(8.0, r[0].weightedCct(), EPS);
    }

    @Test
    void tW2a2S3Weighted() {
        Scenario sc = Fixtures.s3(4, 1, 1);
        ExactFluidLoop.Result[] r = new ExactFluidLoop.Result[1];
        WeightedTwoApproxScheduler s = runW2a(sc, r);
        assertEquals(ids(sc, "C3", "C1", "C2"), s.gamma());
        assertEquals(2.0, r[0].cct("C3"), EPS);
        assertEquals(3.0, r[0].cct("C1"), EPS);
        assertEquals(4.0, r[0].cct("C2"), EPS);
        assertEquals(18.0, r[0].weightedCct(), EPS);
        // The SEBF/Varys order C2, C3, C1 is worse on the weighted sum (20).
        assertEquals(20.0, ExactFluidLoop.run(sc, new FixedOrder(ids(sc, "C2", "C3", "C1"))).weightedCct(), EPS);
    }

    @Test
    void tW2a3Lemma2Fixture() {
        Scenario sc = WeightedFixtures.lemma2();
        ExactFluidLoop.Result[] r = new ExactFluidLoop.Result[1];
        WeightedTwoApproxScheduler s = runW2a(sc, r);
        assertEquals(ids(sc, "F1", "F2"), s.gamma());
        assertEquals(3.0, r[0].cct("F1"), EPS);
        assertEquals(8.0, r[0].cct("F2"), EPS);
        assertEquals(14.0, r[0].weightedCct(), EPS);
    }

    /**
     * Not a spec test; derived by hand for the online use (§10): on FAI1, γ at t = 2 is BSSI over C3, C1, C2
     * on total sizes (bottleneck down(P1) 5 puts C3 last, then down(P2) 5 puts C1 last): C2, C1, C3. It is
     * kept through the completions at 4 and 5. Sincronia, on remaining bytes, gives C3, C1, C2 instead.
     */
    @Test
    void laterArrivalsRankByTotalSizesOfAllCoflowsSeen() {
        Scenario sc = Fixtures.fai1();
        ExactFluidLoop.Result[] r = new ExactFluidLoop.Result[1];
        WeightedTwoApproxScheduler s = runW2a(sc, r);
        assertEquals(ids(sc, "C2", "C1", "C3"), s.gamma());
        assertEquals(ids(sc, "C3"), r[0].decisionAt(0).coflowOrder());
        assertEquals(ids(sc, "C2", "C1", "C3"), r[0].decisionAt(2).coflowOrder());
        assertEquals(ids(sc, "C1"), r[0].decisionAt(5).coflowOrder());
        assertEquals(5.0, r[0].cct("C1"), EPS);
        assertEquals(3.0, r[0].cct("C2"), EPS);
        assertEquals(5.0, r[0].cct("C3"), EPS);
    }

    @Test
    void orderBasedWithRankPriorities() {
        Scenario sc = Fixtures.s3();
        ClusterState state = ClusterState.builder(sc.network()).coflows(sc.coflows()).flows(sc.flows()).build();
        WeightedTwoApproxScheduler s = new WeightedTwoApproxScheduler();
        assertEquals(SchedulerType.ORDER_BASED, s.type());
        assertEquals(CoflowScheduler.Enforcement.PRIORITY_GREEDY, s.enforcement());
        assertEquals(EnumSet.of(Info.SIZES, Info.WEIGHTS), s.needs());
        Decision d = s.schedule(state);
        assertEquals(Integer.valueOf(0), d.priorities().get(sc.flow("C21")));
        assertEquals(Integer.valueOf(1), d.priorities().get(sc.flow("C31")));
        assertEquals(Integer.valueOf(2), d.priorities().get(sc.flow("C11")));
        assertEquals(Double.POSITIVE_INFINITY, s.nextWakeup(state, d), 0.0);
    }

    @Test
    void unknownSizeIsAnErrorNamingSchedulerAndFlow() {
        ClusterState state = ClusterState.builder(Network.uniform(2, 1.0))
                .coflow(Coflow.of(7, 0))
                .flow(Flow.builder(FlowId.of(3), CoflowId.of(7), 0, 1).unknownSize().build())
                .build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new WeightedTwoApproxScheduler().schedule(state));
        assertTrue(e.getMessage().contains("weighted-2approx") && e.getMessage().contains("flow-3")
                && e.getMessage().contains("coflow-7"), e.getMessage());
    }

    @Test
    void registeredWithoutParameters() {
        assertEquals("weighted-2approx", SchedulerRegistry.standard().create("weighted-2approx").name());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SchedulerRegistry.standard()
                .create("weighted-2approx", Collections.singletonMap("ordering", "size")));
        assertTrue(e.getMessage().contains("weighted-2approx"), e.getMessage());
    }

    /** A fixed coflow order, for the alternative schedules the spec compares against. */
    private static final class FixedOrder implements CoflowScheduler {
        private final List<CoflowId> order;

        FixedOrder(List<CoflowId> order) {
            this.order = order;
        }

        @Override
        public String name() {
            return "fixed-order";
        }

        @Override
        public SchedulerType type() {
            return SchedulerType.ORDER_BASED;
        }

        @Override
        public Set<Info> needs() {
            return EnumSet.noneOf(Info.class);
        }

        @Override
        public Decision schedule(ClusterState state) {
            List<CoflowId> active = new ArrayList<>();
            for (CoflowId id : order) {
                if (state.indexOf(id) >= 0) {
                    active.add(id);
                }
            }
            return Decision.ofOrderWithRankPriorities(state, active, Integer.MAX_VALUE);
        }

        @Override
        public double nextWakeup(ClusterState state, Decision decision) {
            return Double.POSITIVE_INFINITY;
        }
    }
}
