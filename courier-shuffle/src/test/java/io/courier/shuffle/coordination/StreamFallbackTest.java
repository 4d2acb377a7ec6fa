package io.courier.shuffle.coordination;

import io.courier.scheduler.model.Decision;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.FlowLedger;
import io.courier.shuffle.proxy.schedule.FlowTally;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void anEpochWithNothingChangedReusesThePlanWithoutReadingTheLedger() {
        SendScheduler sender = new SendScheduler("self", 10, 0);
        FlowLedger ledger = sender.ledger();
        StreamFallback f = new StreamFallback();
        FlowIds ids = new FlowIds();
        sender.streamStarted("big", "r1", 100 * MB);
        f.epoch(ledger, ids, 1L);
        SenderPlan p = f.epoch(ledger, ids, 2L);
        assertEquals(2, f.computedEpochs(), "the first epoch met a new sub-coflow: the second one is computed");
        assertSame(p, f.epoch(ledger, ids, 3L));
        assertSame(p, f.epoch(ledger, ids, 4L));
        assertEquals(2, f.computedEpochs(), "same ledger, no level changed: nothing read");
        assertEquals(0, (int) levels(p).get("big->r1"));
        // A change after the quiet period is picked up by the next epoch: x = 60 MB, n = 1 → level 3.
        sender.sent(SendScheduler.flowKey("big", "r1"), 60 * MB);
        assertEquals(3, (int) levels(f.epoch(ledger, ids, 5L)).get("big->r1"));
        assertEquals(3, f.computedEpochs());
        f.epoch(ledger, ids, 6L);
        assertEquals(4, f.computedEpochs(), "the level moved: one more epoch over the same ledger");
        f.epoch(ledger, ids, 7L);
        assertEquals(4, f.computedEpochs());
        // Forgotten ids (the job finished here) mean new ids for the same rows: recomputed.
        ids.forgetJob("big");
        f.epoch(ledger, ids, 8L);
        assertEquals(5, f.computedEpochs());
    }

    @Test
    void skippedEpochsGiveThePlansOfAnEpochOverEverySnapshot() {
        SendScheduler sender = new SendScheduler("self", 10, 0);
        FlowLedger ledger = sender.ledger();
        StreamFallback skipping = new StreamFallback();
        StreamFallback reference = new StreamFallback();
        FlowIds ids = new FlowIds();
        FlowIds referenceIds = new FlowIds();
        Random random = new Random(42);
        String[] jobs = {"j1", "j2", "j3"};
        String[] peers = {"r1", "r2"};
        List<String[]> open = new ArrayList<>();
        int epochs = 400;
        for (int epoch = 1; epoch <= epochs; epoch++) {
            if (random.nextInt(4) == 0) { // quiet most of the time, as between a reducer's fetches
                String job = jobs[random.nextInt(jobs.length)];
                String peer = peers[random.nextInt(peers.length)];
                switch (random.nextInt(5)) {
                    case 0:
                    case 1:
                        sender.streamStarted(job, peer, (1 + random.nextInt(40)) * MB);
                        open.add(new String[] {job, peer});
                        break;
                    case 2:
                        sender.sent(SendScheduler.flowKey(job, peer), random.nextInt(30) * MB);
                        break;
                    case 3:
                        if (!open.isEmpty()) {
                            String[] s = open.remove(random.nextInt(open.size()));
                            sender.streamEnded(s[0], s[1], random.nextInt(2) * MB);
                        }
                        break;
                    default:
                        if (random.nextInt(4) == 0) { // the job finished here
                            ledger.forgetJob(job);
                            ids.forgetJob(job);
                            referenceIds.forgetJob(job);
                        }
                }
            }
            SenderPlan got = skipping.epoch(ledger, ids, epoch);
            SenderPlan expected = reference.update(ledger.snapshot(), referenceIds, epoch);
            assertTrue(got.asksSameAs(expected), "epoch " + epoch + ": " + got + " vs " + expected);
            assertEquals(levels(expected), levels(got), "epoch " + epoch);
            assertEquals(expected.decision() == null ? null : order(expected, referenceIds),
                    got.decision() == null ? null : order(got, ids), "epoch " + epoch);
        }
        assertTrue(skipping.computedEpochs() < epochs / 2, "most epochs were quiet: " + skipping.computedEpochs());
    }

    /** The plan's coflow order by job name (the two fallbacks number their coflows alike but separately). */
    private static List<String> order(SenderPlan p, FlowIds ids) {
        Map<io.courier.scheduler.model.CoflowId, String> jobOf = new HashMap<>();
        for (FlowBinding b : p.bindings()) {
            jobOf.put(ids.coflow(b.job()), b.job()); // known ids: the plan was built with them
        }
        List<String> out = new ArrayList<>();
        for (io.courier.scheduler.model.CoflowId c : p.decision().coflowOrder()) {
            out.add(jobOf.get(c));
        }
        return out;
    }
}
