package io.courier.scheduler.iaoa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.courier.scheduler.w2a.WeightedTwoApproxScheduler;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IaoaSchedulerTest {
    private static final double EPS = 1e-9;
    private static final int H1 = 0, H2 = 1, H3 = 2;

    /**
     * T-IAOA-1: C1 (w 1) sent 30 on h1→h2 and 10 on h1→h3; C2 (w 4) 100 on h2→h3; C3 (w 2) 20 on h3→h1
     * and 40 on h2→h1. Flow ids: 1 = h1→h2, 2 = h1→h3, 3 = h2→h3, 4 = h3→h1, 5 = h2→h1.
     */
    private static ClusterState tIaoa1(double now, double sizeExtra) {
        Network net = Network.builder().host("h1", 1, 1).host("h2", 1, 1).host("h3", 1, 1).build();
        return ClusterState.builder(net).now(now)
                .coflow(new Coflow(CoflowId.of(1), 0, 1))
                .coflow(new Coflow(CoflowId.of(2), 0, 4))
                .coflow(new Coflow(CoflowId.of(3), 0, 2))
                .flow(sent(1, 1, H1, H2, 30, sizeExtra)).flow(sent(2, 1, H1, H3, 10, sizeExtra))
                .flow(sent(3, 2, H2, H3, 100, sizeExtra))
                .flow(sent(4, 3, H3, H1, 20, sizeExtra)).flow(sent(5, 3, H2, H1, 40, sizeExtra))
                .build();
    }

    private static Flow sent(long id, long coflow, int src, int dst, double sent, double sizeExtra) {
        return Flow.builder(FlowId.of(id), CoflowId.of(coflow), src, dst).sent(sent).size(sent + sizeExtra).build();
    }

    private static double rate(Decision d, long flow) {
        return d.rateOf(FlowId.of(flow));
    }

    @Test
    void tIaoa1AlphasAndOrder() {
        ClusterState s = tIaoa1(0, 1000).withSizesHidden();
        double[] alpha = AlphaOrder.sentAlphas(s);
        assertArrayEquals(new double[] {40, 25, 30}, alpha, EPS);
        assertArrayEquals(new int[] {1, 2, 0}, AlphaOrder.order(s, alpha)); // C2, C3, C1
    }

    @Test
    void tIaoa1GreedyStepThenLeftoverMaxMin() {
        ClusterState s = tIaoa1(0, 1000).withSizesHidden();
        double[] residual = s.residualCapacities(false);
        double[] greedy = GreedyCoflowAllocation.prioritized(s, new int[] {1, 2, 0}, residual);
        // Flow indices follow insertion order: index k is flow id k+1.
        assertArrayEquals(new double[] {0, 0, 1, 0, 0}, greedy, EPS);
        assertEquals(0.0, residual[s.network().up(H2)], EPS);
        assertEquals(0.0, residual[s.network().down(H3)], EPS);

        Decision d = new IaoaScheduler(0.05).schedule(s);
        assertEquals(SchedulerType.RATE_BASED, d.type());
        assertEquals(1.0, rate(d, 3), EPS); // h2→h3
        assertEquals(1.0, rate(d, 4), EPS); // h3→h1
        assertEquals(0.0, rate(d, 5), EPS); // h2→h1
        assertEquals(1.0, rate(d, 1), EPS); // h1→h2
        assertEquals(0.0, rate(d, 2), EPS); // h1→h3
    }

    @Test
    void tIaoa2LemmaWorstCaseWithTEqualTwo() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(WeightedFixtures.lemma2(), new IaoaScheduler(2.0));
        // Alternation: F1 in [0,2), F2 in [2,4), F1 in [4,5), then F2 to 8.
        assertEquals(1.0, r.rateAt(0, "F11"), EPS);
        assertEquals(0.0, r.rateAt(2, "F11"), EPS);
        assertEquals(1.0, r.rateAt(2, "F21"), EPS);
        assertEquals(1.0, r.rateAt(4, "F11"), EPS);
        assertEquals(5.0, r.cct("F1"), EPS);
        assertEquals(8.0, r.cct("F2"), EPS);
        assertEquals(18.0, r.weightedCct(), EPS);
    }

    @Test
    void tIaoa2GapToOptimumIsW1TimesT() {
        double period = 2.0;
        ExactFluidLoop.Result iaoa = ExactFluidLoop.run(WeightedFixtures.lemma2(), new IaoaScheduler(period));
        ExactFluidLoop.Result w2a = ExactFluidLoop.run(WeightedFixtures.lemma2(), new WeightedTwoApproxScheduler());
        assertEquals(3.0, w2a.cct("F1"), EPS);
        assertEquals(8.0, w2a.cct("F2"), EPS);
        assertEquals(14.0, w2a.weightedCct(), EPS);
        assertEquals(2.0 * period, iaoa.weightedCct() - w2a.weightedCct(), EPS); // W1 · T = 4
    }

    @Test
    void tIaoa2WithTEqualHalf() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(WeightedFixtures.lemma2(), new IaoaScheduler(0.5));
        assertEquals(4.5, r.cct("F1"), EPS);
        assertEquals(8.0, r.cct("F2"), EPS);
    }

    @Test
    void tIaoa3FixtureV3() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(), new IaoaScheduler(0.5));
        assertEquals(5.0, r.cct("A"), EPS);
        assertEquals(1.0, r.cct("B"), EPS);
        assertEquals(1.0, r.cct("C"), EPS);
        assertEquals(0.0, r.rateAt(1, "A1"), EPS);
        assertEquals(1.0, r.rateAt(1, "B1"), EPS);
        assertEquals(1.0, r.rateAt(1, "C1"), EPS);
    }

    @Test
    void tIaoa3AlphasAtTimeOne() {
        Scenario v3 = Fixtures.v3();
        ClusterState.Builder b = ClusterState.builder(v3.network()).now(1).coflows(v3.coflows());
        for (Flow f : v3.flows()) {
            b.flow(f.id().equals(v3.flow("A1")) ? f.toBuilder().sent(1).build() : f);
        }
        ClusterState s = b.build().withSizesHidden();
        double[] alpha = AlphaOrder.sentAlphas(s);
        assertArrayEquals(new double[] {1, 0, 0}, alpha, EPS); // A, B, C
        assertArrayEquals(new int[] {1, 2, 0}, AlphaOrder.order(s, alpha));
    }

    @Test
    void arrivalReordersWithoutWaitingForThePeriod() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(), new IaoaScheduler(Double.POSITIVE_INFINITY));
        assertEquals(5.0, r.cct("A"), EPS);
        assertEquals(1.0, r.cct("B"), EPS);
        assertEquals(1.0, r.cct("C"), EPS);
    }

    /** C1 (w 3) = {a→x 1}; C2 (w 2) = {b→y 5}; C3 (w 1) = {b→y 5}; T far away. */
    @Test
    void departureReordersTheRemainingCoflows() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("C1", 0, 3).flow("a", "x", 1)
                .coflow("C2", 0, 2).flow("b", "y", 5)
                .coflow("C3", 0, 1).flow("b", "y", 5)
                .build();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, new IaoaScheduler(100));
        // At 0 all α are 0: weight decides (C1, C2, C3). At 1 C1 leaves: α(C2) = 1/2 > α(C3) = 0.
        assertEquals(1.0, r.rateAt(0, "C21"), EPS);
        assertEquals(1.0, r.rateAt(1, "C31"), EPS);
        assertEquals(1.0, r.cct("C1"), EPS);
        assertEquals(6.0, r.cct("C3"), EPS);
        assertEquals(10.0, r.cct("C2"), EPS);
    }

    /** C1 = {a→x 1, b→y 4}, C2 = {b→y 4}, both w 1: the flow completion at 1 must not re-order. */
    @Test
    void flowCompletionKeepsTheCachedOrder() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("C1", 0).flow("a", "x", 1).flow("b", "y", 4)
                .coflow("C2", 0).flow("b", "y", 4)
                .build();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, new IaoaScheduler(10));
        // Re-ordering at 1 would put C2 (α 0) before C1 (α 1).
        assertEquals(1.0, r.rateAt(1, "C12"), EPS);
        assertEquals(0.0, r.rateAt(1, "C21"), EPS);
        assertEquals(4.0, r.cct("C1"), EPS);
        assertEquals(8.0, r.cct("C2"), EPS);
    }

    @Test
    void periodTriggerAndWakeup() {
        IaoaScheduler s = new IaoaScheduler(0.05);
        ClusterState first = tIaoa1(0, 1000).withSizesHidden();
        Decision d0 = s.schedule(first);
        assertEquals(Arrays.asList(CoflowId.of(2), CoflowId.of(3), CoflowId.of(1)), s.currentOrder());
        assertEquals(0.05, s.nextWakeup(first, d0), EPS);

        // Same coflows, new bytes sent that would rank C1 first, but T has not elapsed: the order stays.
        ClusterState early = withC1Silent(0.01);
        Decision d1 = s.schedule(early);
        assertEquals(Arrays.asList(CoflowId.of(2), CoflowId.of(3), CoflowId.of(1)), s.currentOrder());
        assertEquals(0.0, s.lastOrderTime(), 0.0);
        assertEquals(0.05, s.nextWakeup(early, d1), EPS);
        assertEquals(0.0, rate(d1, 2), EPS);

        ClusterState due = withC1Silent(0.05);
        Decision d2 = s.schedule(due);
        assertEquals(Arrays.asList(CoflowId.of(1), CoflowId.of(2), CoflowId.of(3)), s.currentOrder());
        assertEquals(0.05, s.lastOrderTime(), 0.0);
        assertEquals(0.1, s.nextWakeup(due, d2), EPS);
        // C1 first: its two flows share up(h1), 1/2 each; C2's h2→h3 then finds down(h3) at 1/2.
        assertEquals(0.5, rate(d2, 1), EPS);
        assertEquals(0.5, rate(d2, 2), EPS);
        assertEquals(0.5, rate(d2, 3), EPS);
    }

    /** The T-IAOA-1 coflows at {@code now}, except that C1 has sent nothing (α(C1) = 0). */
    private static ClusterState withC1Silent(double now) {
        ClusterState base = tIaoa1(now, 1000);
        ClusterState.Builder b = ClusterState.builder(base.network()).now(now).coflows(base.coflows());
        for (Flow f : base.flows()) {
            b.flow(f.coflow().equals(CoflowId.of(1)) ? f.toBuilder().sent(0).build() : f);
        }
        return b.build().withSizesHidden();
    }

    @Test
    void decisionDependsOnBytesSentNotOnSizes() {
        IaoaScheduler s = new IaoaScheduler(0.05);
        assertFalse(s.needs().contains(Info.SIZES));
        assertTrue(s.needs().contains(Info.WEIGHTS));
        ClusterState small = tIaoa1(0, 1);
        ClusterState large = tIaoa1(0, 1e6);
        Map<FlowId, Double> expected = new IaoaScheduler(0.05).schedule(small.viewFor(s.needs())).rates();
        assertEquals(expected, new IaoaScheduler(0.05).schedule(large.viewFor(s.needs())).rates());
        // Even when handed a state whose sizes are visible, IAOA does not use them.
        assertEquals(expected, new IaoaScheduler(0.05).schedule(small).rates());
        assertEquals(expected, new IaoaScheduler(0.05).schedule(large).rates());
    }

    @Test
    void greedyStepDividesByFlowsPerPort() {
        // One coflow with two flows on up(a): the paper's r = min{I, O} = 1 would put 2 on a unit port.
        ClusterState s = ClusterState.builder(Network.uniform(3, 1.0))
                .coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 1, 5)).flow(Flow.of(2, 1, 0, 2, 5))
                .build().withSizesHidden();
        double[] rate = GreedyCoflowAllocation.allocate(s, new int[] {0});
        assertArrayEquals(new double[] {0.5, 0.5}, rate, EPS);
    }

    @Test
    void equalAlphaPrefersHigherWeightThenArrival() {
        ClusterState s = ClusterState.builder(Network.uniform(4, 1.0))
                .coflow(new Coflow(CoflowId.of(1), 0, 1))
                .coflow(new Coflow(CoflowId.of(2), 0, 2))
                .coflow(new Coflow(CoflowId.of(3), 1, 2))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).sent(1).build())
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(2), 1, 2).sent(2).build())
                .flow(Flow.builder(FlowId.of(3), CoflowId.of(3), 2, 3).sent(2 + 1e-12).build())
                .build();
        double[] alpha = AlphaOrder.sentAlphas(s);
        // α = 1, 1, 1 (+5e-13): one tie group; weight 2 first, then the earlier arrival.
        assertArrayEquals(new int[] {1, 2, 0}, AlphaOrder.order(s, alpha));
    }

    @Test
    void registryCreatesIaoaWithThePaperDefault() {
        CoflowScheduler s = SchedulerRegistry.standard().create("iaoa");
        assertEquals("iaoa", s.name());
        assertEquals(0.05, ((IaoaScheduler) s).period(), 0.0);
        Map<String, String> p = new HashMap<>();
        p.put("period", "0.5");
        assertEquals(0.5, ((IaoaScheduler) SchedulerRegistry.standard().create("iaoa", p)).period(), 0.0);
        p.put("period", "Infinity");
        assertEquals(Double.POSITIVE_INFINITY,
                ((IaoaScheduler) SchedulerRegistry.standard().create("iaoa", p)).period(), 0.0);
    }

    @Test
    void badParametersAreRejected() {
        for (String bad : new String[] {"0", "-0.05", "NaN", "fast", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SchedulerRegistry.standard().create("iaoa", Collections.singletonMap("period", bad)));
            assertTrue(e.getMessage().contains("period") && e.getMessage().contains("iaoa"), e.getMessage());
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> SchedulerRegistry.standard().create("iaoa", Collections.singletonMap("T", "0.05")));
        assertTrue(unknown.getMessage().contains("period"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IaoaScheduler(0));
        assertThrows(IllegalArgumentException.class, () -> new IaoaScheduler(Double.NaN));
    }
}
