package io.courier.scheduler.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.primitives.QueueAllocation.GroupSharing;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** P7 LAS queue index (SCHEDULERS.md §0.5, §4). */
class LasQueuesTest {
    private static final double MIB = 1048576.0;
    private static final double Q1 = 10 * MIB;

    /** T-AALO-1 with the defaults K = 10, E = 10, Q1 = 10 MiB; demotion at s ≥ threshold. */
    @Test
    void tAalo1QueueIndexWithDefaults() {
        LasQueues q = new LasQueues(10, 10, Q1);
        assertEquals(0, q.queueOf(0));
        assertEquals(0, q.queueOf(Q1 - 1));
        assertEquals(1, q.queueOf(Q1));
        assertEquals(1, q.queueOf(100 * MIB - 1));
        assertEquals(2, q.queueOf(100 * MIB));
        assertEquals(9, q.queueOf(1e8 * Q1));
        assertEquals(9, q.queueOf(1e9 * Q1));
        assertEquals(8, q.queueOf(1e8 * Q1 - 1));
    }

    /** Upper thresholds Q_q^hi = Q1·E^q; the last queue is unbounded. */
    @Test
    void upperThresholds() {
        LasQueues q = new LasQueues(10, 10, Q1);
        assertEquals(Q1, q.upperThreshold(0), 0.0);
        assertEquals(100 * MIB, q.upperThreshold(1), 0.0);
        assertEquals(1e8 * Q1, q.upperThreshold(8), 0.0);
        assertEquals(Double.POSITIVE_INFINITY, q.upperThreshold(9), 0.0);
        assertEquals(10, q.queues());
    }

    /** T-AALO-2 / T-FAI-1 use Q1 = 4 units: C3 has sent 4 at t = 2 and is in queue 1. */
    @Test
    void faiFigure1Thresholds() {
        LasQueues q = new LasQueues(10, 10, 4);
        assertEquals(0, q.queueOf(3.999));
        assertEquals(1, q.queueOf(4));
        assertEquals(1, q.queueOf(39.9));
        assertEquals(2, q.queueOf(40));
    }

    @Test
    void oneQueueHoldsEverything() {
        LasQueues q = new LasQueues(1, 10, Q1);
        assertEquals(0, q.queueOf(1e18));
        assertEquals(Double.POSITIVE_INFINITY, q.upperThreshold(0), 0.0);
    }

    @Test
    void badParametersAreRejectedByName() {
        rejects(() -> new LasQueues(0, 10, Q1), "number of queues K must be >= 1", "0");
        rejects(() -> new LasQueues(10, 1, Q1), "threshold multiplier E", "> 1", "1.0");
        rejects(() -> new LasQueues(10, Double.NaN, Q1), "threshold multiplier E", "NaN");
        rejects(() -> new LasQueues(10, 10, 0), "first threshold Q1", "> 0", "0.0");
        rejects(() -> new LasQueues(10, 10, Double.POSITIVE_INFINITY), "first threshold Q1", "Infinity");
    }

    private static void rejects(Executable e, String... fragments) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String f : fragments) {
            assertTrue(x.getMessage().contains(f), "message '" + x.getMessage() + "' lacks '" + f + "'");
        }
    }

    /**
     * FAI1 at t = 2 under strict priority (Q1 = 4, so C3, having sent 4, is in queue 1 and gets nothing): C1 and C2
     * each send 1.5 in all and reach Q1 at 2 + 4 / 1.5; C3 would reach 40 but sends nothing. The crossings from the
     * coflows' total rates equal those from the flows' rates, with or without C3 marked as known to be at 0; the
     * early bound aims at the threshold minus its slack.
     */
    @Test
    void crossingsFromCoflowRatesOnFaiFigure1() {
        Scenario sc = Fixtures.fai1();
        ClusterState s = Snapshot.of(sc).now(2).sent("C3F1", 2).sent("C3F2", 2).build();
        LasQueues las = new LasQueues(10, 10, 4);
        int[] queueOf = las.queuesOf(s);
        double[] rate = new double[s.flowCount()];
        boolean[] idle = QueueAllocation.strict(s, queueOf, 10, GroupSharing.MAX_MIN, s.residualCapacities(false),
                rate);
        assertArrayEquals(new boolean[] {true, false, false}, idle); // coflow order (arrival, id): C3, C1, C2
        double[] total = las.coflowRates(s, rate, null);
        assertArrayEquals(new double[] {0, 1.5, 1.5}, total, 1e-12);
        assertArrayEquals(total, las.coflowRates(s, rate, idle), 0.0);
        assertEquals(2 + 4 / 1.5, las.nextCrossingAt(s, total, false), 1e-12);
        assertEquals(las.nextCrossing(s, rate, false), las.nextCrossingAt(s, total, false), 0.0);
        assertEquals(2 + (4 - 4e-9) / 1.5, las.nextCrossingAt(s, total, true), 1e-12);
        assertEquals(las.nextCrossing(s, rate, true), las.nextCrossingAt(s, total, true), 0.0);
        // A coflow in the last queue has no threshold to cross: its rates are not summed.
        double[] c3Sends = rate.clone();
        c3Sends[Snapshot.index(s, sc, "C3F1")] = 1;
        assertArrayEquals(new double[] {1, 1.5, 1.5}, las.coflowRates(s, c3Sends, null), 1e-12);
        assertArrayEquals(new double[] {0, 1.5, 1.5}, new LasQueues(2, 10, 4).coflowRates(s, c3Sends, null), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, new LasQueues(1, 10, 4).nextCrossingAt(s, total, false));
    }
}
