package io.courier.scheduler.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
