package io.courier.shuffle.proxy.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A stream's stride-scheduling pass across a change of its weight (the wire-level case: SchedulingOnTheWireTest). */
class PassAtNewWeightTest {
    @Test
    void aStreamAheadOfTheClockStaysAheadByTheSameBytes() {
        // 8 units ahead at weight 2 = 16 bytes sent beyond its share; at weight 4 those 16 bytes are 4 units.
        assertEquals(14.0, ConnectionSender.passAtNewWeight(18.0, 10.0, 2.0, 4.0), 1e-12);
        assertEquals(26.0, ConnectionSender.passAtNewWeight(18.0, 10.0, 2.0, 1.0), 1e-12);
    }

    @Test
    void aStreamBehindTheClockKeepsItsCatchUp() {
        assertEquals(9.0, ConnectionSender.passAtNewWeight(8.0, 10.0, 1.0, 2.0), 1e-12);
    }

    @Test
    void anUnchangedWeightOrAStreamAtTheClockKeepsItsPass() {
        assertEquals(18.0, ConnectionSender.passAtNewWeight(18.0, 10.0, 3.0, 3.0), 1e-12);
        assertEquals(10.0, ConnectionSender.passAtNewWeight(10.0, 10.0, 3.0, 7.0), 1e-12);
    }

    @Test
    void withoutPositiveWeightsOrAFinitePassTheStreamStartsAtTheClock() {
        // A rate-0 stream that sent a block has an infinite pass; when it gets a rate it starts afresh.
        assertEquals(10.0, ConnectionSender.passAtNewWeight(Double.POSITIVE_INFINITY, 10.0, 0.0, 5.0), 0.0);
        assertEquals(10.0, ConnectionSender.passAtNewWeight(18.0, 10.0, 0.0, 5.0), 0.0);
        assertEquals(10.0, ConnectionSender.passAtNewWeight(18.0, 10.0, 5.0, 0.0), 0.0);
        assertEquals(10.0, ConnectionSender.passAtNewWeight(Double.NaN, 10.0, 1.0, 2.0), 0.0);
    }
}
