package io.courier.scheduler.aalo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AaloSchedulerTest {
    private static final double EPS = 1e-9;

    private static CoflowScheduler aalo(String... keyValues) {
        Map<String, String> p = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return SchedulerRegistry.standard().create("aalo", p);
    }

    /**
     * T-AALO-2, the Fai paper's Fig. 1 example (Q1 = 4): at t = 2 C3 has sent 4 and drops to queue 1;
     * C1 and C2 arrived together and share P2. CCTs 4, 5, 5 — the paper's numbers.
     */
    @Test
    void tAalo2FaiFigure1() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.fai1(), aalo("firstThreshold", "4"));
        assertEquals(1.0, r.rateAt(2, "C1F1"), EPS);
        assertEquals(0.5, r.rateAt(2, "C1F2"), EPS);
        assertEquals(0.5, r.rateAt(2, "C2F1"), EPS);
        assertEquals(1.0, r.rateAt(2, "C2F2"), EPS);
        assertEquals(0.0, r.rateAt(2, "C3F1"), EPS);
        assertEquals(0.0, r.rateAt(2, "C3F2"), EPS);
        assertEquals(4.0, r.cct("C1"), EPS);
        assertEquals(5.0, r.cct("C2"), EPS);
        assertEquals(5.0, r.cct("C3"), EPS);
    }

    /** T-AALO-3: with Q1 = 2, A is demoted at t = 2 and B, C run; with Q1 = 100 FIFO blocks them. */
    @Test
    void tAalo3Demotion() {
        ExactFluidLoop.Result demoted = ExactFluidLoop.run(Fixtures.v3(), aalo("firstThreshold", "2"));
        assertEquals(5.0, demoted.cct("A"), EPS);
        assertEquals(2.0, demoted.cct("B"), EPS);
        assertEquals(2.0, demoted.cct("C"), EPS);
        ExactFluidLoop.Result blocked = ExactFluidLoop.run(Fixtures.v3(), aalo("firstThreshold", "100"));
        assertEquals(4.0, blocked.cct("A"), EPS);
        assertEquals(4.0, blocked.cct("B"), EPS);
        assertEquals(4.0, blocked.cct("C"), EPS);
    }

    /** The demotion happens at the threshold crossing itself, not at the next epoch boundary. */
    @Test
    void wakesUpExactlyAtTheThresholdCrossing() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(), aalo("firstThreshold", "2", "epoch", "1000"));
        assertEquals(2.0, r.cct("B"), EPS);
        assertEquals(1.0, r.rateAt(2.0, "B1"), EPS);
        assertEquals(1.0, r.rateAt(1.5, "A1"), EPS);
    }

    /** The weighted mode (w_q = K − q) serves the demoted coflow too, in proportion to its queue's weight. */
    @Test
    void weightedModeSharesAcrossQueues() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(),
                aalo("firstThreshold", "2", "interQueue", "weighted", "epoch", "1000"));
        // At t = 2: A in queue 1 (weight 9), B and C in queue 0 (weight 10) on s1 and r1 respectively.
        assertEquals(10.0 / 19, r.rateAt(2.0, "B1"), EPS);
        assertEquals(10.0 / 19, r.rateAt(2.0, "C1"), EPS);
        assertEquals(9.0 / 19, r.rateAt(2.0, "A1"), EPS);
    }

    @Test
    void rejectsBadParameters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> aalo("queues", "0"));
        assertTrue(e.getMessage().contains("queues"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> aalo("multiplier", "1"));
        assertTrue(e.getMessage().contains("multiplier"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> aalo("interQueue", "wfq"));
        assertTrue(e.getMessage().contains("[strict, weighted]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> aalo("epoch", "NaN"));
        assertTrue(e.getMessage().contains("epoch"), e.getMessage());
    }
}
