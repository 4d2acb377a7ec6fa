package io.courier.shuffle.coordination;

import io.courier.scheduler.model.Decision;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.FlowTally;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Stream's sender-side fallback on hand-checkable cases (SCHEDULERS.md §7, T-STREAM-1/2). */
class StreamFallbackTest {
    private static final long MB = 1L << 20;

    private static Map<String, Integer> levels(SenderPlan p) {
        Decision d = p.decision();
        Map<String, Integer> out = new HashMap<>();
        for (FlowBinding b : p.bindings()) {
            out.put(b.job() + "->" + b.peer(), d.priorities().get(b.id()));
        }
        return out;
    }

    private static FlowTally open(String job, String peer, long sentMb, int streams, int ended) {
        // Open streams (ended < started) with something left to send.
        return new FlowTally(job, peer, sentMb * MB + 1, sentMb * MB, 0, streams, ended);
    }

    @Test
    void levelsFollowTheFormulaPerReceiverAndAreDemotedOnly() {
        StreamFallback f = new StreamFallback();
        FlowIds ids = new FlowIds();
        // T-STREAM-1c: x = 20 MB, n = 10 → level 1; 1e: x = 60 MB → 3; 1a-like: 1 MB → 0. Per receiver.
        SenderPlan p = f.update(Arrays.asList(open("big", "r1", 20, 10, 0), open("huge", "r1", 60, 10, 0),
                open("small", "r1", 1, 10, 0), open("big", "r2", 1, 10, 0)), ids, 1_000_000L);
        Map<String, Integer> l = levels(p);
        assertEquals(1, (int) l.get("big->r1"));
        assertEquals(3, (int) l.get("huge->r1"));
        assertEquals(0, (int) l.get("small->r1"));
        assertEquals(0, (int) l.get("big->r2"), "the same coflow is judged per receiver");
        assertEquals(2, f.receivers());
        // T-STREAM-2: flows finishing raise H (the formula would give level 0 for big at x = 20, n^fin = 9) but the
        // level never goes back up.
        p = f.update(Arrays.asList(open("big", "r1", 20, 10, 9)), ids, 2_000_000L);
        assertEquals(1, (int) levels(p).get("big->r1"));
    }

    @Test
    void idlePairsAreRememberedButNotPlanned() {
        StreamFallback f = new StreamFallback();
        FlowIds ids = new FlowIds();
        f.update(Arrays.asList(open("big", "r1", 60, 10, 0)), ids, 1L);
        // All streams ended, nothing pending: nothing to plan.
        assertSame(SenderPlan.NONE, f.update(Arrays.asList(new FlowTally("big", "r1", 60 * MB, 60 * MB, 0, 10, 10)),
                ids, 2L));
        // A new segment of the same pair starts where the level was (3), not at 0.
        SenderPlan p = f.update(Arrays.asList(new FlowTally("big", "r1", 61 * MB, 60 * MB, 0, 11, 10)), ids, 3L);
        assertEquals(3, (int) levels(p).get("big->r1"));
        assertSame(SenderPlan.NONE, f.update(Collections.<FlowTally>emptyList(), ids, 4L));
        assertEquals(0, f.receivers());
    }
}
