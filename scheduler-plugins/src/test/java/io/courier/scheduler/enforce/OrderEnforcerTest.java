package io.courier.scheduler.enforce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.CoflowScheduler.Enforcement;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * E1 PriorityGreedy and E2 PriorityClassMaxMin (SCHEDULERS.md §0.3) on T-STREAM-3's case: receiver d
 * carries c1 (class 0: flow 1 a→d, flow 2 b→d) and c2 (class 2: flow 3 e→d); every port has capacity 1.
 *
 * <p>Note on T-STREAM-3's second sentence ("c2 gets 0.5 as soon as one c1 flow finishes"): with unit
 * capacities E2 gives the remaining c1 flow all of down(d) (max-min inside class 0 is limited only by its
 * own up port, also 1), so c2 gets 0 until c1 is done. c2 gets 0.5 only if the remaining c1 flow's sender
 * is limited to 0.5; both readings are tested below.
 */
class OrderEnforcerTest {
    private static final double EPS = 1e-9;
    private static final int A = 0, B = 1, E = 2, D = 3;
    private static final CoflowId C1 = CoflowId.of(1);
    private static final CoflowId C2 = CoflowId.of(2);

    /**
     * The T-STREAM-3 state; {@code finishedFlow1} marks a→d done; {@code upB} is b's sender capacity. Flows
     * are added in the order 2, 3, 1 so that E1's "ascending flow id" is not the insertion order.
     */
    private static ClusterState stream3(boolean finishedFlow1, double upB) {
        Network n = Network.builder().host("a", 1, 1).host("b", upB, 1).host("e", 1, 1).host("d", 1, 1).build();
        Flow f1 = Flow.of(1, 1, A, D, 4);
        if (finishedFlow1) {
            f1 = f1.toBuilder().sent(4).finished(true).build();
        }
        return ClusterState.builder(n).coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .flow(Flow.of(2, 1, B, D, 4)).flow(Flow.of(3, 2, E, D, 4)).flow(f1)
                .build();
    }

    private static Decision classes(ClusterState s, List<CoflowId> order) {
        Map<FlowId, Integer> p = new HashMap<>();
        for (int f : s.unfinishedFlows()) {
            p.put(s.flow(f).id(), s.flow(f).coflow().equals(C1) ? 0 : 2);
        }
        return Decision.ofOrder(order, p);
    }

    /** Rates by flow id 1, 2, 3. */
    private static double[] byId(ClusterState s, double[] rate) {
        double[] out = new double[3];
        for (int i = 0; i < rate.length; i++) {
            out[(int) s.flow(i).id().value() - 1] = rate[i];
        }
        return out;
    }

    @Test
    void e2SharesClassZeroFairlyAndStarvesClassTwo() {
        ClusterState s = stream3(false, 1);
        double[] r = OrderEnforcer.rates(s, classes(s, Arrays.asList(C1, C2)), Enforcement.PRIORITY_CLASS_MAX_MIN);
        assertArrayEquals(new double[] {0.5, 0.5, 0.0}, byId(s, r), EPS);
    }

    @Test
    void e2AfterOneClassZeroFlowFinishes() {
        ClusterState s = stream3(true, 1);
        double[] r = OrderEnforcer.rates(s, classes(s, Arrays.asList(C1, C2)), Enforcement.PRIORITY_CLASS_MAX_MIN);
        assertArrayEquals(new double[] {0.0, 1.0, 0.0}, byId(s, r), EPS);
        ClusterState slowB = stream3(true, 0.5);
        r = OrderEnforcer.rates(slowB, classes(slowB, Arrays.asList(C1, C2)), Enforcement.PRIORITY_CLASS_MAX_MIN);
        assertArrayEquals(new double[] {0.0, 0.5, 0.5}, byId(slowB, r), EPS);
    }

    /** E1: c1 first, its flows by ascending id: flow 1 takes all of down(d); flows 2 and 3 get 0. */
    @Test
    void e1GivesTheWholePortToTheFirstFlowOfTheFirstCoflow() {
        ClusterState s = stream3(false, 1);
        double[] r = OrderEnforcer.rates(s, classes(s, Arrays.asList(C1, C2)), Enforcement.PRIORITY_GREEDY);
        assertArrayEquals(new double[] {1.0, 0.0, 0.0}, byId(s, r), EPS);
        ClusterState done = stream3(true, 1);
        r = OrderEnforcer.rates(done, classes(done, Arrays.asList(C1, C2)), Enforcement.PRIORITY_GREEDY);
        assertArrayEquals(new double[] {0.0, 1.0, 0.0}, byId(done, r), EPS);
    }

    /** E1 follows the coflow order, not the priorities: with c2 first, flow 3 takes down(d). */
    @Test
    void e1FollowsTheCoflowOrder() {
        ClusterState s = stream3(false, 1);
        double[] r = OrderEnforcer.rates(s, classes(s, Arrays.asList(C2, C1)), Enforcement.PRIORITY_GREEDY);
        assertArrayEquals(new double[] {0.0, 0.0, 1.0}, byId(s, r), EPS);
    }

    /** Coflows the order leaves out are served after it in (arrival, id) order; E2 puts flows without class last. */
    @Test
    void leftOutCoflowsAndUnclassifiedFlowsComeLast() {
        ClusterState s = stream3(false, 1);
        Decision empty = Decision.ofOrder(Collections.<CoflowId>emptyList(), Collections.<FlowId, Integer>emptyMap());
        assertArrayEquals(new double[] {1.0, 0.0, 0.0},
                byId(s, OrderEnforcer.rates(s, empty, Enforcement.PRIORITY_GREEDY)), EPS);
        Map<FlowId, Integer> onlyC2 = new HashMap<>();
        onlyC2.put(FlowId.of(3), 2);
        Decision partial = Decision.ofOrder(Collections.singletonList(C2), onlyC2);
        assertArrayEquals(new double[] {0.0, 0.0, 1.0},
                byId(s, OrderEnforcer.rates(s, partial, Enforcement.PRIORITY_CLASS_MAX_MIN)), EPS);
    }

    /** A rate-based decision passes through; finished flows get 0 whatever the decision says. */
    @Test
    void rateBasedDecisionsPassThrough() {
        ClusterState s = stream3(true, 1);
        Map<FlowId, Double> m = new HashMap<>();
        m.put(FlowId.of(1), 0.7);
        m.put(FlowId.of(2), 0.25);
        double[] r = OrderEnforcer.rates(s, Decision.ofRates(m), Enforcement.PRIORITY_GREEDY);
        assertArrayEquals(new double[] {0.0, 0.25, 0.0}, byId(s, r), 0.0);
        assertEquals(3, r.length);
    }

    /**
     * {@link OrderEnforcer#greedyRates} into a zeroed buffer gives E1's rates bit for bit and lists exactly the flows
     * with a positive rate, ascending — on random states (shuffled orders, partial orders, finished flows, many
     * coflows sharing few hosts) — and rejects what it cannot enforce.
     */
    @Test
    void greedyRatesAreE1sRatesWithTheirPositiveFlowsListed() {
        java.util.Random rnd = new java.util.Random(17);
        io.courier.scheduler.primitives.ToppedFlows topped = new io.courier.scheduler.primitives.ToppedFlows();
        for (int trial = 0; trial < 300; trial++) {
            int hosts = 2 + rnd.nextInt(8);
            Network.Builder nb = Network.builder();
            for (int h = 0; h < hosts; h++) {
                nb.host("h" + h, 1 + rnd.nextInt(3), 1 + rnd.nextInt(3));
            }
            Network net = nb.build();
            ClusterState.Builder b = ClusterState.builder(net).now(0.0);
            int coflows = 1 + rnd.nextInt(8);
            List<CoflowId> order = new java.util.ArrayList<>();
            long id = 1;
            for (int c = 0; c < coflows; c++) {
                CoflowId cid = CoflowId.of(c + 1);
                b.coflow(new Coflow(cid, c, 1.0));
                for (int k = 0, n = 1 + rnd.nextInt(12); k < n; k++) {
                    b.flow(Flow.builder(FlowId.of(id++), cid, rnd.nextInt(hosts), rnd.nextInt(hosts)).size(10)
                            .sent(rnd.nextInt(10)).finished(rnd.nextInt(6) == 0).build());
                }
                if (rnd.nextInt(4) > 0) {
                    order.add(cid);
                }
            }
            Collections.shuffle(order, rnd);
            ClusterState s = b.build();
            Decision d = Decision.ofOrder(order, Collections.<FlowId, Integer>emptyMap());
            double[] expected = OrderEnforcer.rates(s, d, Enforcement.PRIORITY_GREEDY);
            double[] zeroed = new double[s.flowCount() + rnd.nextInt(3)];
            OrderEnforcer.greedyRates(s, d, zeroed, topped);
            assertArrayEquals(expected, Arrays.copyOf(zeroed, s.flowCount()), "trial " + trial);
            int[] listed = new int[topped.count()];
            topped.sortedInto(listed);
            int[] positive = java.util.stream.IntStream.range(0, s.flowCount()).filter(f -> expected[f] > 0).toArray();
            assertArrayEquals(positive, listed, "trial " + trial + ": flows listed");
        }
        ClusterState s = stream3(false, 1.0);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> OrderEnforcer.greedyRates(s, Decision.ofOrder(Arrays.asList(C1, C2),
                        Collections.<FlowId, Integer>emptyMap()), new double[1], topped));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> OrderEnforcer.greedyRates(s, Decision.ofRates(new HashMap<FlowId, Double>()),
                        new double[s.flowCount()], topped));
    }

    /**
     * A decision made with a priority array ({@link Decision#ofOrderWithOwnedPriorities}) is the decision made with the
     * same classes in a map: the same classes by flow id and, under E2, the same rates bit for bit, on random states
     * with classes 0..3 and unclassified flows; malformed arrays are rejected.
     */
    @Test
    void priorityArraysAreThePrioritiesOfAMap() {
        java.util.Random rnd = new java.util.Random(31);
        for (int trial = 0; trial < 200; trial++) {
            int hosts = 2 + rnd.nextInt(6);
            Network net = Network.uniform(hosts, 1 + rnd.nextInt(3));
            ClusterState.Builder b = ClusterState.builder(net).now(0.0);
            List<CoflowId> order = new java.util.ArrayList<>();
            long id = 1;
            for (int c = 0, n = 1 + rnd.nextInt(5); c < n; c++) {
                CoflowId cid = CoflowId.of(c + 1);
                b.coflow(new Coflow(cid, c, 1.0));
                order.add(cid);
                for (int k = 0, m = 1 + rnd.nextInt(10); k < m; k++) {
                    b.flow(Flow.builder(FlowId.of(id++), cid, rnd.nextInt(hosts), rnd.nextInt(hosts)).size(10)
                            .sent(rnd.nextInt(10)).finished(rnd.nextInt(5) == 0).build());
                }
            }
            Collections.shuffle(order, rnd);
            ClusterState s = b.build();
            int[] prio = new int[s.flowCount()];
            Map<FlowId, Integer> map = new HashMap<>();
            for (int f = 0; f < prio.length; f++) {
                prio[f] = s.finished(f) ? -1 : rnd.nextInt(5) - 1;
                if (prio[f] >= 0) {
                    map.put(s.flow(f).id(), prio[f]);
                }
            }
            Decision byMap = Decision.ofOrder(order, map);
            Decision byArray = Decision.ofOrderWithOwnedPriorities(s, order, prio.clone());
            assertEquals(byMap.priorities(), byArray.priorities(), "trial " + trial);
            double[] e2 = OrderEnforcer.rates(s.withSizesHidden(), byArray, Enforcement.PRIORITY_CLASS_MAX_MIN);
            assertArrayEquals(OrderEnforcer.rates(s, byMap, Enforcement.PRIORITY_CLASS_MAX_MIN), e2, "trial " + trial);
            // Enforced again on the state the view came from: the rates noted with the decision, the same.
            assertArrayEquals(e2, OrderEnforcer.rates(s, byArray, Enforcement.PRIORITY_CLASS_MAX_MIN), "trial " + trial);
        }
        ClusterState s = stream3(false, 1.0);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Decision.ofOrderWithOwnedPriorities(s, Arrays.asList(C1), new int[1]));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Decision.ofOrderWithOwnedPriorities(s, Arrays.asList(C1, C1), new int[s.flowCount()]));
        int[] bad = new int[s.flowCount()];
        bad[0] = -2;
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Decision.ofOrderWithOwnedPriorities(s, Arrays.asList(C1), bad));
    }

    /**
     * E2's classes come out as a sorted map of lists would give them — classes ascending, unclassified last, flows
     * ascending — whether counted (few, close classes) or sorted (class numbers far apart), on random priorities.
     */
    @Test
    void classesComeInClassThenFlowOrder() {
        java.util.Random rnd = new java.util.Random(5);
        for (int round = 0; round < 500; round++) {
            int flows = 1 + rnd.nextInt(60);
            int[] priority = new int[flows + 5];
            int spread = round % 3 == 0 ? 5_000_000 : 1 + rnd.nextInt(6);
            for (int f = 0; f < priority.length; f++) {
                priority[f] = rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(spread);
            }
            int[] open = java.util.stream.IntStream.range(0, priority.length).filter(f -> rnd.nextInt(4) != 0)
                    .toArray();
            java.util.TreeMap<Integer, List<Integer>> expected = new java.util.TreeMap<>();
            for (int f : open) {
                expected.computeIfAbsent(priority[f] < 0 ? Integer.MAX_VALUE : priority[f], k -> new java.util.ArrayList<>())
                        .add(f);
            }
            List<int[]> got = OrderEnforcer.classesInOrder(priority, open);
            assertEquals(expected.size(), got.size(), "classes in round " + round);
            int k = 0;
            for (List<Integer> members : expected.values()) {
                assertArrayEquals(members.stream().mapToInt(Integer::intValue).toArray(), got.get(k++),
                        "round " + round);
            }
        }
    }
}
