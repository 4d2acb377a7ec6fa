package io.courier.scheduler.primitives;

import static io.courier.scheduler.primitives.Hand.EPS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.primitives.QueueAllocation.GroupSharing;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The LAS queue allocation of Aalo and Fai step 1 (SCHEDULERS.md §4, §6), strict and weighted. */
class QueueAllocationTest {
    private static final double[] FAI_WEIGHTS = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};

    /** FAI1 at t = 2: C3 has sent 2 + 2 = 4 = Q1 and is in queue 1; C1 and C2 arrive together in queue 0. */
    private static Hand fai1AtTwo() {
        Scenario sc = Fixtures.fai1();
        return new Hand(sc, Snapshot.of(sc).now(2).sent("C3F1", 2).sent("C3F2", 2).build());
    }

    private static int[] queues(ClusterState s, LasQueues las) {
        int[] q = new int[s.coflowCount()];
        for (int c = 0; c < q.length; c++) {
            q[c] = las.queueOf(s.sentBy(c));
        }
        return q;
    }

    /**
     * T-AALO-2 / T-FAI-1 step 1, strict priority: the tie group {C1, C2} shares jointly (P2 is split 0.5/0.5,
     * C1F1 and C2F2 get 1), and C3 in queue 1 finds P1 and P3 full.
     */
    @Test
    void strictPriorityOnFaiFigure1() {
        Hand h = fai1AtTwo();
        ClusterState s = h.state();
        int[] q = queues(s, new LasQueues(10, 10, 4));
        assertArrayEquals(new int[] {1, 0, 0}, q); // coflow order (arrival, id): C3, C1, C2
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        QueueAllocation.strict(s, q, 10, GroupSharing.MAX_MIN, residual, rate);
        assertEquals(1.0, rate[h.flow("C1F1")], EPS);
        assertEquals(0.5, rate[h.flow("C1F2")], EPS);
        assertEquals(0.5, rate[h.flow("C2F1")], EPS);
        assertEquals(1.0, rate[h.flow("C2F2")], EPS);
        assertEquals(0.0, rate[h.flow("C3F1")], 0.0);
        assertEquals(0.0, rate[h.flow("C3F2")], 0.0);
        assertEquals(0.0, residual[h.down("P1")], EPS);
        assertEquals(0.0, residual[h.down("P2")], EPS);
        assertEquals(0.0, residual[h.down("P3")], EPS);
    }

    /**
     * The same state with WFQ weights 10, 9, …, 1: on P1 and P3 queues 0 and 1 are active (W = 19), so queue 0
     * may use 10/19 there; on P2 only queue 0 is active and gets all of it. Queue 0: C1F2 = C2F1 = 0.5 (P2),
     * C1F1 = C2F2 = 10/19. Queue 1 gets its 9/19 of P1 and P3: C3F1 = C3F2 = 9/19.
     */
    @Test
    void weightedQueuesOnFaiFigure1() {
        Hand h = fai1AtTwo();
        ClusterState s = h.state();
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        QueueAllocation.weighted(s, queues(s, new LasQueues(10, 10, 4)), FAI_WEIGHTS, GroupSharing.MAX_MIN,
                residual, rate);
        assertEquals(10.0 / 19, rate[h.flow("C1F1")], EPS);
        assertEquals(0.5, rate[h.flow("C1F2")], EPS);
        assertEquals(0.5, rate[h.flow("C2F1")], EPS);
        assertEquals(10.0 / 19, rate[h.flow("C2F2")], EPS);
        assertEquals(9.0 / 19, rate[h.flow("C3F1")], EPS);
        assertEquals(9.0 / 19, rate[h.flow("C3F2")], EPS);
        assertEquals(0.0, residual[h.down("P1")], EPS);
        assertEquals(0.0, residual[h.down("P3")], EPS);
        assertEquals(9.0 / 19, residual[h.up("s1")], EPS);
    }

    /**
     * T-AALO-3 (V3) at t = 2: with Q1 = 2 A has sent 2 and is demoted to queue 1, so B and C (queue 0) run at
     * 1 and A gets nothing; with Q1 = 100 all are in queue 0 and FIFO lets A (earlier arrival) block B and C.
     */
    @Test
    void queuesFirstThenFifoByArrival() {
        Scenario v3 = Fixtures.v3();
        Hand h = new Hand(v3, Snapshot.of(v3).now(2).sent("A1", 2).build());
        ClusterState s = h.state();

        double[] rate = h.noRates();
        QueueAllocation.strict(s, queues(s, new LasQueues(10, 10, 2)), 10, GroupSharing.MAX_MIN, h.fullCapacity(),
                rate);
        assertEquals(0.0, rate[h.flow("A1")], 0.0);
        assertEquals(1.0, rate[h.flow("B1")], EPS);
        assertEquals(1.0, rate[h.flow("C1")], EPS);

        rate = h.noRates();
        QueueAllocation.strict(s, queues(s, new LasQueues(10, 10, 100)), 10, GroupSharing.MAX_MIN,
                h.fullCapacity(), rate);
        assertEquals(1.0, rate[h.flow("A1")], EPS);
        assertEquals(0.0, rate[h.flow("B1")], 0.0);
        assertEquals(0.0, rate[h.flow("C1")], 0.0);
    }

    /**
     * One coflow with T-FAIR-1's flows: MAX_MIN gives the exact 2/3, 1/3, 1/3, 1/3; ONE_SHOT (AALO_COFLOWSIM)
     * gives CoflowSim's 1/2, 1/3, 1/3, 1/3.
     */
    @Test
    void groupSharingMaxMinVersusOneShot() {
        Hand h = Hand.of(Scenario.unitCapacity().hosts("a", "b", "c", "x", "y").coflow("C", 0)
                .flow("f1", "a", "x", 10).flow("f2", "a", "y", 10).flow("f3", "b", "y", 10).flow("f4", "c", "y", 10)
                .build());
        int[] q = {0};
        double[] exact = h.noRates();
        QueueAllocation.strict(h.state(), q, 10, GroupSharing.MAX_MIN, h.fullCapacity(), exact);
        assertEquals(2.0 / 3, exact[h.flow("f1")], EPS);
        assertEquals(1.0 / 3, exact[h.flow("f2")], EPS);
        double[] oneShot = h.noRates();
        QueueAllocation.strict(h.state(), q, 10, GroupSharing.ONE_SHOT, h.fullCapacity(), oneShot);
        assertEquals(0.5, oneShot[h.flow("f1")], EPS);
        assertEquals(1.0 / 3, oneShot[h.flow("f2")], EPS);
        assertEquals(1.0 / 3, oneShot[h.flow("f3")], EPS);
        assertEquals(1.0 / 3, oneShot[h.flow("f4")], EPS);
    }

    /**
     * Wide coflows behind spent ports: a few narrow coflows in queue 0 fill some up and down ports, then wide
     * coflows (64 flows and more, some finished) in queues 0–2 share what is left. The strict allocation, which
     * skips a wide coflow all of whose source or destination ports are spent, gives the same rates and residuals
     * as filling every tie group in turn, and marks as idle exactly groups that got nothing. Fails when a coflow
     * with one open port on each side is skipped, or when an idle mark is set for a group that got a rate.
     */
    @Test
    void wideCoflowsBehindSpentPortsGetWhatFillingEachGroupGives() {
        Random rnd = new Random(7);
        int skipped = 0;
        int served = 0;
        for (int round = 0; round < 60; round++) {
            int hosts = 12;
            Scenario.Builder b = Scenario.unitCapacity();
            String[] names = new String[hosts];
            for (int h = 0; h < hosts; h++) {
                names[h] = "h" + h;
            }
            b.hosts(names);
            int coflows = 0;
            for (int k = 0; k < 2 + rnd.nextInt(3); k++, coflows++) { // narrow ones, in queue 0, first
                b.coflow("N" + k, k);
                for (int j = 0; j < 1 + rnd.nextInt(4); j++) {
                    b.flow(names[rnd.nextInt(hosts)], names[rnd.nextInt(hosts)], 10);
                }
            }
            for (int k = 0; k < 4; k++, coflows++) {
                b.coflow("W" + k, 10 + rnd.nextInt(3)); // equal arrivals make tie groups of wide coflows
                int srcs = 1 + rnd.nextInt(4);
                int from = rnd.nextInt(hosts);
                for (int j = 0; j < 64 + rnd.nextInt(8); j++) {
                    b.flow("W" + k + "f" + j, names[(from + j % srcs) % hosts], names[rnd.nextInt(hosts)], 10);
                }
            }
            Scenario sc = b.build();
            Snapshot snap = Snapshot.of(sc).now(20);
            for (int k = 0; k < 4; k++) {
                snap.finished("W0f" + rnd.nextInt(64)); // finished flows stay in the state and are not shared
            }
            ClusterState s = snap.build();
            int[] queueOf = new int[s.coflowCount()];
            for (int c = 0; c < queueOf.length; c++) {
                queueOf[c] = s.unfinishedFlowsOf(c).length >= 64 ? rnd.nextInt(3) : 0;
            }
            double[] residual = s.residualCapacities(false);
            double[] rate = new double[s.flowCount()];
            boolean[] idle = QueueAllocation.strict(s, queueOf, 3, GroupSharing.MAX_MIN, residual, rate);

            double[] expectedResidual = s.residualCapacities(false);
            double[] expected = new double[s.flowCount()];
            for (int q = 0; q < 3; q++) {
                for (int[] group : QueueAllocation.groups(s, queueOf, q)) {
                    int[] flows = QueueAllocation.flowsOf(s, group);
                    int n = flows.length;
                    int given = MaxMin.fill(s, flows, expectedResidual, null, expected);
                    for (int c : group) {
                        assertEquals(given == 0, idle[c], "idle mark of coflow " + c + " in round " + round);
                        if (given == 0 && n >= 64) {
                            skipped++;
                        } else if (given > 0 && n >= 64) {
                            served++;
                        }
                    }
                }
            }
            assertArrayEquals(expected, rate, 0.0, "rates in round " + round);
            assertArrayEquals(expectedResidual, residual, 0.0, "residuals in round " + round);
        }
        // The rounds must exercise both sides of the check.
        assertTrue(skipped > 20, "wide coflows that got nothing: " + skipped);
        assertTrue(served > 20, "wide coflows that got a rate: " + served);
    }
}
