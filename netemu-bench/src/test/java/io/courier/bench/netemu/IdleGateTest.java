package io.courier.bench.netemu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class IdleGateTest {
    private static IdleGate.Window windows(Double... cores) {
        Deque<Double> q = new ArrayDeque<>(Arrays.asList(cores));
        return () -> {
            if (q.isEmpty()) {
                throw new AssertionError("the gate read more windows than it may");
            }
            return q.poll();
        };
    }

    @Test
    void startsAfterTheFirstQuietWindow() throws Exception {
        IdleGate.Reading r = new IdleGate(0.1, 5).await(windows(0.3, 0.12, 0.04, 0.5));
        assertEquals(3, r.windows);
        assertEquals(0.04, r.foreignCores);
    }

    @Test
    void aHostThatStaysBusyGivesTheLastReadingAfterTheLastWindow() throws Exception {
        IdleGate.Reading r = new IdleGate(0.1, 3).await(windows(0.3, 0.2, 0.15));
        assertEquals(3, r.windows);
        assertEquals(0.15, r.foreignCores);
    }

    @Test
    void theLimitItselfIsBusy() throws Exception {
        IdleGate.Reading r = new IdleGate(0.1, 2).await(windows(0.1, 0.0));
        assertEquals(2, r.windows);
    }

    @Test
    void rejectsAGateThatCouldNeverPass() {
        assertThrows(IllegalArgumentException.class, () -> new IdleGate(0.0, 3));
        assertThrows(IllegalArgumentException.class, () -> new IdleGate(0.1, 0));
    }
}
