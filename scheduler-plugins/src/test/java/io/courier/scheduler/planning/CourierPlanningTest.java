package io.courier.scheduler.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Courier cases of SCHEDULERS.md §11 (T-COURIER-1..6) and the data division rules. */
class CourierPlanningTest {
    private static final double EPS = 1e-12;
    private static final NodePair AB = new NodePair("A", "B");
    private static final NodePair AC = new NodePair("A", "C");
    private static final NodePair AD = new NodePair("A", "D");

    private static List<PlannedFlow> rateInput() {
        return Arrays.asList(
                PlannedFlow.withRate(FlowId.of(1), AB, 10, 2),
                PlannedFlow.withRate(FlowId.of(2), AB, 6, 1),
                PlannedFlow.withRate(FlowId.of(3), AC, 4, 3),
                PlannedFlow.withRate(FlowId.of(4), AD, 50, 1));
    }

    private static List<PlannedFlow> orderInput() {
        return Arrays.asList(
                PlannedFlow.withRank(FlowId.of(1), AB, 5, 2),
                PlannedFlow.withRank(FlowId.of(2), AB, 3, 1),
                PlannedFlow.withRank(FlowId.of(3), AB, 4, 1),
                PlannedFlow.withRank(FlowId.of(4), AC, 8, 3),
                PlannedFlow.withRank(FlowId.of(5), AD, 1, 1));
    }

    private static List<PlannedFlow> noneInput() {
        return Arrays.asList(
                PlannedFlow.unscheduled(FlowId.of(1), AB, 10),
                PlannedFlow.unscheduled(FlowId.of(2), AB, 6),
                PlannedFlow.unscheduled(FlowId.of(3), AC, 4),
                PlannedFlow.unscheduled(FlowId.of(4), AD, 50));
    }

    private static UnifiedFlow find(List<UnifiedFlow> flows, NodePair pair) {
        for (UnifiedFlow f : flows) {
            if (f.pair().equals(pair)) {
                return f;
            }
        }
        throw new AssertionError("no unified flow for " + pair + " in " + flows);
    }

    /** "pair size rate/rank" strings, sorted, so a result compares as a multiset. */
    private static List<String> describe(List<UnifiedFlow> flows) {
        List<String> out = new ArrayList<>();
        for (UnifiedFlow f : flows) {
            out.add(f.pair() + " " + f.size() + (f.mode() == PlanningMode.RATE ? " r" + f.rate()
                    : f.mode() == PlanningMode.ORDER ? " k" + f.rank() : ""));
        }
        Collections.sort(out);
        return out;
    }

    @Test
    void tCourier1MergeRate() {
        List<UnifiedFlow> u = Merge.merge(rateInput(), PlanningMode.RATE);
        assertEquals(3, u.size());
        assertEquals(16, find(u, AB).size(), EPS);
        assertEquals(3, find(u, AB).rate(), EPS);
        assertEquals(4, find(u, AC).size(), EPS);
        assertEquals(3, find(u, AC).rate(), EPS);
        assertEquals(50, find(u, AD).size(), EPS);
        assertEquals(1, find(u, AD).rate(), EPS);
        // Bytes delivered on A→B go 2/3 to the first constituent and 1/3 to the second.
        Map<FlowId, Double> split = find(u, AB).divide(9);
        assertEquals(6, split.get(FlowId.of(1)), EPS);
        assertEquals(3, split.get(FlowId.of(2)), EPS);
    }

    @Test
    void tCourier2MergeOrderIsPermutationInvariant() {
        List<UnifiedFlow> u = Merge.merge(orderInput(), PlanningMode.ORDER);
        UnifiedFlow ab = find(u, AB);
        assertEquals(7, ab.size(), EPS);
        assertEquals(1, ab.rank());
        assertEquals(1, ab.heldBack().size());
        assertEquals(FlowId.of(1), ab.heldBack().get(0).id());
        assertEquals(8, find(u, AC).size(), EPS);
        assertEquals(3, find(u, AC).rank());
        assertEquals(1, find(u, AD).size(), EPS);
        assertEquals(1, find(u, AD).rank());
        Random rnd = new Random(7);
        for (int i = 0; i < 20; i++) {
            List<PlannedFlow> shuffled = new ArrayList<>(orderInput());
            Collections.shuffle(shuffled, rnd);
            assertEquals(describe(u), describe(Merge.merge(shuffled, PlanningMode.ORDER)));
        }
    }

    @Test
    void tCourier3SelectAndSplitRate() {
        List<UnifiedFlow> u = Merge.merge(rateInput(), PlanningMode.RATE);
        assertEquals(Arrays.asList("A->B 8.0 r1.5", "A->B 8.0 r1.5", "A->C 2.0 r1.5", "A->C 2.0 r1.5",
                "A->D 50.0 r1.0"), describe(new SelectAndSplit(5, 1).apply(u)));
        List<UnifiedFlow> two = new SelectAndSplit(2, 1).apply(u);
        assertEquals(Arrays.asList("A->B 16.0 r3.0", "A->C 4.0 r3.0"), describe(two));
        // Selection order: rate tie between A→B and A→C goes to the larger size.
        assertEquals(AB, two.get(0).pair());
    }

    @Test
    void tCourier4SelectAndSplitOrder() {
        List<UnifiedFlow> u = Merge.merge(orderInput(), PlanningMode.ORDER);
        assertEquals(Arrays.asList("A->B 3.5 k1", "A->B 3.5 k1", "A->C 8.0 k3", "A->D 1.0 k1"),
                describe(new SelectAndSplit(4, 2).apply(u)));
        assertEquals(Arrays.asList("A->B 7.0 k1", "A->D 1.0 k1"), describe(new SelectAndSplit(2, 2).apply(u)));
    }

    @Test
    void tCourier5NoSchedulerSelectsBiggest() {
        List<UnifiedFlow> u = Merge.merge(noneInput(), PlanningMode.NONE);
        assertEquals(Arrays.asList("A->B 16.0", "A->C 4.0", "A->D 50.0"), describe(u));
        assertEquals(Arrays.asList("A->B 16.0", "A->D 50.0"), describe(new SelectAndSplit(2, 1).apply(u)));
        assertEquals(Arrays.asList("A->B 16.0", "A->C 4.0", "A->D 25.0", "A->D 25.0"),
                describe(new SelectAndSplit(4, 1).apply(u)));
    }

    @Test
    void tCourier6SplitTerminatesWhenNothingExceedsMinSize() {
        List<UnifiedFlow> u = Merge.merge(noneInput(), PlanningMode.NONE);
        assertEquals(Arrays.asList("A->B 16.0", "A->C 4.0", "A->D 25.0", "A->D 25.0"),
                describe(new SelectAndSplit(6, 30).apply(u)));
    }

    @Test
    void unlimitedMaxNumIsOneFlowPerPairWithoutSplitting() {
        List<UnifiedFlow> u = Merge.merge(rateInput(), PlanningMode.RATE);
        assertEquals(describe(u), describe(new SelectAndSplit(SelectAndSplit.UNLIMITED, 0).apply(u)));
    }

    @Test
    void divisionCapsAtPendingBytesAndRedistributes() {
        UnifiedFlow none = find(Merge.merge(noneInput(), PlanningMode.NONE), AB);
        Map<FlowId, Double> even = none.divide(8);
        assertEquals(4, even.get(FlowId.of(1)), EPS);
        assertEquals(4, even.get(FlowId.of(2)), EPS);
        // Flow 2 has only 6 pending: of 14 bytes it takes 6, flow 1 takes 8.
        Map<FlowId, Double> capped = none.divide(14);
        assertEquals(8, capped.get(FlowId.of(1)), 1e-9);
        assertEquals(6, capped.get(FlowId.of(2)), 1e-9);
        // Order mode: equal split among the best-ranked constituents only.
        Map<FlowId, Double> ordered = find(Merge.merge(orderInput(), PlanningMode.ORDER), AB).divide(4);
        assertEquals(2, ordered.get(FlowId.of(2)), EPS);
        assertEquals(2, ordered.get(FlowId.of(3)), EPS);
        assertEquals(2, ordered.size());
    }

    @Test
    void plannerReusesThePlanWhileTheScheduleIsUnchanged() {
        CourierPlanner planner = new CourierPlanner(PlanningMode.RATE, 5, 1);
        List<UnifiedFlow> first = planner.plan(rateInput());
        assertSame(first, planner.plan(new ArrayList<>(rateInput())));
        List<PlannedFlow> changed = new ArrayList<>(rateInput());
        changed.set(3, PlannedFlow.withRate(FlowId.of(4), AD, 50, 4));
        List<UnifiedFlow> second = planner.plan(changed);
        assertTrue(second != first);
        assertEquals(AD, second.get(0).pair()); // now the fastest pair is selected first
    }

    @Test
    void plannedFlowsFromDecision() {
        Network net = Network.builder().host("A", 1, 1).host("B", 1, 1).host("C", 1, 1).build();
        ClusterState s = ClusterState.builder(net).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 1, 10)).flow(Flow.of(2, 1, 0, 1, 6)).flow(Flow.of(3, 1, 1, 2, 5)).build();
        double[] rate = {0.5, 0.25, 1};
        List<PlannedFlow> fromA = PlannedFlows.forSource(s, Decision.ofRates(s, rate), 0);
        assertEquals(2, fromA.size());
        UnifiedFlow ab = Merge.merge(fromA, PlanningMode.RATE).get(0);
        assertEquals(16, ab.size(), EPS);
        assertEquals(0.75, ab.rate(), EPS);
        assertEquals(2, PlannedFlows.forSource(s, null, 0).size());
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new SelectAndSplit(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new SelectAndSplit(3, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> PlannedFlow.withRate(FlowId.of(1), AB, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> PlannedFlow.withRate(FlowId.of(1), AB, 1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> PlannedFlow.withRank(FlowId.of(1), AB, 1, -2));
        assertThrows(IllegalArgumentException.class,
                () -> Merge.merge(rateInput(), PlanningMode.ORDER)); // rate flows carry no rank
    }
}
