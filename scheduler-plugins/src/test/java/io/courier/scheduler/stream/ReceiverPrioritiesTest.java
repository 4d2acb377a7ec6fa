package io.courier.scheduler.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.CoflowId;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReceiverPrioritiesTest {
    private static final double MB = 1048576.0;
    private static final CoflowId C1 = CoflowId.of(1);
    private static final CoflowId C2 = CoflowId.of(2);

    private static SubCoflowObservation obs(CoflowId c, double xMb, int n, int nFin, boolean stalled) {
        return SubCoflowObservation.builder(c).bytesReceived(xMb * MB).flows(n, nFin).stalled(stalled).build();
    }

    private static List<SubCoflowObservation> one(SubCoflowObservation o) {
        return Collections.singletonList(o);
    }

    private static ReceiverPriorities receiver(StarvationAging aging) {
        return new ReceiverPriorities("r", StreamPriority.defaults(), aging);
    }

    /** T-STREAM-2: level 2 was set (φ_prev = 2); the formula now gives 1 because n^fin grew; the level stays 2. */
    @Test
    void tStream2LevelsAreMonotone() {
        ReceiverPriorities r = receiver(StarvationAging.off());
        assertEquals(0, r.levelOf(C1), "unknown sub-coflows start in the highest class");
        assertEquals(Integer.valueOf(2), r.update(0.0, one(obs(C1, 30, 10, 0, false))).get(C1)); // row d
        assertEquals(2, r.previousFormulaLevelOf(C1));

        SubCoflowObservation nearlyDone = obs(C1, 30, 10, 5, false); // row f
        assertEquals(1, StreamPriority.defaults().level(nearlyDone, 2), "the formula alone would promote");
        assertEquals(Integer.valueOf(2), r.update(0.01, one(nearlyDone)).get(C1));
        assertEquals(2, r.levelOf(C1));
        assertEquals(2, r.demotedLevelOf(C1));
        assertEquals(2, r.previousFormulaLevelOf(C1));

        // Demotion still works: row e gives 3.
        assertEquals(Integer.valueOf(3), r.update(0.02, one(obs(C1, 60, 10, 0, false))).get(C1));
        assertEquals(3, r.previousFormulaLevelOf(C1));
    }

    @Test
    void levelsArePerSubCoflowAndAbsentOnesAreForgotten() {
        ReceiverPriorities r = receiver(StarvationAging.off());
        Map<CoflowId, Integer> levels = r.update(0.0, Arrays.asList(obs(C1, 60, 10, 0, false),
                obs(C2, 15, 10, 0, false)));
        assertEquals(Integer.valueOf(3), levels.get(C1));
        assertEquals(Integer.valueOf(0), levels.get(C2));
        assertEquals(2, r.size());
        r.update(0.01, one(obs(C2, 20, 10, 0, false)));
        assertFalse(r.knows(C1), "a coflow no longer observed here has finished");
        assertEquals(0, r.levelOf(C1));
        assertEquals(1, r.levelOf(C2));
        // If the coflow id came back it would start fresh, in class 0.
        assertEquals(Integer.valueOf(0), r.update(0.02, one(obs(C1, 1, 10, 0, false))).get(C1));
    }

    @Test
    void starvationPromotesTransientlyOneLevelPerTimer() {
        ReceiverPriorities r = receiver(StarvationAging.every(0.01));
        assertEquals(Integer.valueOf(2), r.update(0.0, one(obs(C1, 30, 10, 0, false))).get(C1));
        // Stalled since the previous epoch (t = 0): 1 timer -> one level up, 2 timers -> two levels up.
        assertEquals(Integer.valueOf(1), r.update(0.01, one(obs(C1, 30, 10, 0, true))).get(C1));
        assertEquals(Integer.valueOf(0), r.update(0.02, one(obs(C1, 30, 10, 0, true))).get(C1));
        assertEquals(Integer.valueOf(0), r.update(0.03, one(obs(C1, 30, 10, 0, true))).get(C1));
        assertEquals(2, r.demotedLevelOf(C1), "the promotion never changes the demoted level");
        // Every flow got bytes again: the promotion ends at once.
        assertEquals(Integer.valueOf(2), r.update(0.04, one(obs(C1, 31, 10, 0, false))).get(C1));
        // A new stall counts from the epoch before it was seen (t = 0.04), not from the old one.
        assertEquals(Integer.valueOf(1), r.update(0.05, one(obs(C1, 31, 10, 0, true))).get(C1));
        assertEquals(Integer.valueOf(1), r.update(0.055, one(obs(C1, 31, 10, 0, true))).get(C1));
    }

    @Test
    void stalledFlagIsIgnoredWithoutTheStarvationRule() {
        ReceiverPriorities r = receiver(StarvationAging.off());
        r.update(0.0, one(obs(C1, 30, 10, 0, false)));
        assertEquals(Integer.valueOf(2), r.update(5.0, one(obs(C1, 30, 10, 0, true))).get(C1));
    }

    @Test
    void misuseIsRejectedWithContext() {
        ReceiverPriorities r = receiver(StarvationAging.off());
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class,
                () -> r.update(0.0, Arrays.asList(obs(C1, 1, 1, 0, false), obs(C1, 2, 1, 0, false))));
        assertTrue(dup.getMessage().contains("coflow-1") && dup.getMessage().contains("receiver r"), dup.getMessage());
        r.update(1.0, one(obs(C1, 1, 1, 0, false)));
        assertThrows(IllegalArgumentException.class, () -> r.update(0.5, one(obs(C1, 1, 1, 0, false))));
        assertThrows(IllegalArgumentException.class, () -> StarvationAging.every(0));
        assertThrows(IllegalArgumentException.class,
                () -> new ReceiverPriorities("r", null, StarvationAging.off()));
    }
}
