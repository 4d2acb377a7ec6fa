package io.courier.shuffle.proxy.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.shuffle.proxy.schedule.StreamClass;
import io.courier.shuffle.proxy.source.Segment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The connection's send order (the wire-level case of moving weights: SchedulingOnTheWireTest): passes across a
 * change of weight, a clock that never goes back, and no stream left waiting under weights that move at every
 * block.
 */
class StrideScheduleTest {
    private static final int BLOCK = 16384;

    @Test
    void aStreamAheadOfTheClockStaysAheadByTheSameBytes() {
        // 8 units ahead at weight 2 = 16 bytes sent beyond its share; at weight 4 those 16 bytes are 4 units.
        assertEquals(14.0, StrideSchedule.passAtNewWeight(18.0, 10.0, 2.0, 4.0), 1e-12);
        assertEquals(26.0, StrideSchedule.passAtNewWeight(18.0, 10.0, 2.0, 1.0), 1e-12);
    }

    @Test
    void aStreamBehindTheClockKeepsItsCatchUp() {
        assertEquals(9.0, StrideSchedule.passAtNewWeight(8.0, 10.0, 1.0, 2.0), 1e-12);
    }

    @Test
    void anUnchangedWeightOrAStreamAtTheClockKeepsItsPass() {
        assertEquals(18.0, StrideSchedule.passAtNewWeight(18.0, 10.0, 3.0, 3.0), 1e-12);
        assertEquals(10.0, StrideSchedule.passAtNewWeight(10.0, 10.0, 3.0, 7.0), 1e-12);
    }

    @Test
    void withoutPositiveWeightsOrAFinitePassTheStreamStartsAtTheClock() {
        assertEquals(10.0, StrideSchedule.passAtNewWeight(Double.POSITIVE_INFINITY, 10.0, 0.0, 5.0), 0.0);
        assertEquals(10.0, StrideSchedule.passAtNewWeight(18.0, 10.0, 0.0, 5.0), 0.0);
        assertEquals(10.0, StrideSchedule.passAtNewWeight(18.0, 10.0, 5.0, 0.0), 0.0);
        assertEquals(10.0, StrideSchedule.passAtNewWeight(Double.NaN, 10.0, 1.0, 2.0), 0.0);
    }

    @Test
    void aStreamCatchingUpBehindTheClockDoesNotMoveTheClockBack() {
        StrideSchedule schedule = new StrideSchedule();
        OutboundStream a = stream(1, "job_a", 1 << 20, 1 << 20);
        OutboundStream b = stream(2, "job_b", 1 << 20, 0);
        schedule.add(a);
        schedule.add(b);
        for (int i = 0; i < 4; i++) {
            assertSame(a, schedule.pick());
            schedule.sent(a, BLOCK);
        }
        double clock = schedule.clock(0);
        assertEquals(3.0 * BLOCK, clock, 0.0);
        b.credit = 1 << 20;
        schedule.resumed(b); // one full block of catch-up: its pass is below the clock
        assertTrue(b.pass < clock, "b catches up from behind the clock: " + b.pass);
        assertSame(b, schedule.pick());
        schedule.sent(b, BLOCK);
        assertEquals(clock, schedule.clock(0), 0.0, "the clock stays where the furthest stream started");
    }

    @Test
    void aJoiningStreamStartsAtItsRanksClock() {
        StrideSchedule schedule = new StrideSchedule();
        OutboundStream a = stream(1, "job_a", 1 << 20, 1 << 20);
        schedule.add(a);
        schedule.sent(a, BLOCK);
        schedule.sent(a, BLOCK);
        OutboundStream b = stream(2, "job_b", 1 << 20, 1 << 20);
        schedule.add(b);
        assertEquals(schedule.clock(0), b.pass, 0.0);
        assertSame(b, schedule.pick(), "the newcomer is behind a, which has already sent its next block's worth");
    }

    /**
     * Random re-plans (every {@code replanEvery} blocks each job's weight moves a few per cent, now and then by up
     * to ×20 either way, and with {@code zeroChance} drops to 0), streams arriving and finishing, credit returned
     * 1 to 20 blocks late. For every eligible stream the service it was owed while it waited (its share of each
     * block that went to another stream of its rank) must stay below 64 blocks; it is 9 to 28 in these six cases.
     * Restarting changed weights at the clock (the sender before 2026-11-25) owed 670 to 1,960 blocks in four of
     * them; keeping leads against a clock that could move back, 160 and 340 in two.
     */
    @ParameterizedTest
    @CsvSource({"1, 0.0, 11", "5, 0.0, 12", "50, 0.0, 13", "1, 0.05, 14", "5, 0.05, 15", "50, 0.05, 16"})
    void noStreamWaitsLongUnderWeightsThatMoveAtEveryBlock(int replanEvery, double zeroChance, long seed) {
        double worst = worstOwedBlocks(new Random(seed), replanEvery, zeroChance, 1_000_000);
        assertTrue(worst < 64, "a stream was owed " + worst + " blocks while it waited");
    }

    private static double worstOwedBlocks(Random rnd, int replanEvery, double zeroChance, int blocks) {
        int jobs = 4;
        double[] jobWeight = new double[jobs];
        java.util.Arrays.fill(jobWeight, 1e4);
        StrideSchedule schedule = new StrideSchedule();
        List<OutboundStream> open = new ArrayList<>();
        List<double[]> owed = new ArrayList<>(); // parallel to open: the blocks owed since the stream last sent
        ArrayDeque<Object[]> returns = new ArrayDeque<>(); // {stream, bytes, due step}
        double worst = 0;
        int nextId = 0;
        for (long step = 0; step < blocks; step++) {
            if (open.size() < 12 && rnd.nextDouble() < 0.01) {
                OutboundStream s = stream(nextId++, "job_" + rnd.nextInt(jobs), 1 + rnd.nextInt(8_000_000), 131072);
                open.add(s);
                owed.add(new double[1]);
                reweigh(schedule, open, jobWeight);
                schedule.add(s);
            }
            if (step % replanEvery == 0) {
                for (int j = 0; j < jobs; j++) {
                    if (rnd.nextDouble() < zeroChance) {
                        jobWeight[j] = 0;
                    } else if (jobWeight[j] == 0 || rnd.nextDouble() < 0.001) {
                        jobWeight[j] = 1e4 * Math.exp(3 * rnd.nextGaussian());
                    } else {
                        jobWeight[j] *= Math.exp((rnd.nextDouble() - 0.5) * 0.2);
                    }
                }
                reweigh(schedule, open, jobWeight);
            }
            while (!returns.isEmpty() && (long) returns.peekFirst()[2] <= step) {
                Object[] r = returns.pollFirst();
                OutboundStream s = (OutboundStream) r[0];
                boolean wasEligible = s.eligible();
                s.credit += (int) r[1];
                if (!wasEligible && open.contains(s)) {
                    schedule.resumed(s);
                }
            }
            OutboundStream best = schedule.pick();
            if (best == null) {
                continue;
            }
            double rankWeight = 0;
            for (OutboundStream s : open) {
                if (s.eligible()) {
                    rankWeight += s.weight;
                }
            }
            for (int i = 0; i < open.size(); i++) {
                OutboundStream s = open.get(i);
                if (s == best) {
                    owed.get(i)[0] = 0;
                } else if (s.eligible()) {
                    owed.get(i)[0] += s.weight / rankWeight;
                    worst = Math.max(worst, owed.get(i)[0]);
                }
            }
            int n = (int) Math.min(BLOCK, Math.min(best.credit, best.remaining));
            schedule.sent(best, n);
            best.remaining -= n;
            best.credit -= n;
            returns.addLast(new Object[] {best, n, step + 1 + rnd.nextInt(20)});
            if (best.remaining == 0) {
                int i = open.indexOf(best);
                open.remove(i);
                owed.remove(i);
                schedule.remove(best);
                reweigh(schedule, open, jobWeight);
            }
        }
        return worst;
    }

    /** What ConnectionSender.replan does: a job's class weight shared by its streams on the connection. */
    private static void reweigh(StrideSchedule schedule, List<OutboundStream> open, double[] jobWeight) {
        int[] streamsOfJob = new int[jobWeight.length];
        for (OutboundStream s : open) {
            streamsOfJob[jobOf(s)]++;
        }
        for (OutboundStream s : open) {
            int j = jobOf(s);
            schedule.reclassify(s, new StreamClass(0, jobWeight[j]), jobWeight[j] / streamsOfJob[j]);
        }
    }

    private static int jobOf(OutboundStream s) {
        return s.job.charAt(s.job.length() - 1) - '0';
    }

    private static OutboundStream stream(int id, String job, long bytes, long credit) {
        OutboundStream s = new OutboundStream(id, job, "attempt_" + id, new Segment(new File("unused"), 0, bytes, bytes),
                null, credit);
        s.streamClass = new StreamClass(0, 1.0);
        return s;
    }
}
