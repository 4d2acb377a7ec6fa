package io.courier.coordinator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.protocol.FlowReport;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ReportGateTest {
    private static final long MS = 1_000_000L;
    private static final double RATE = 100e6; // bytes/s: 1 MB per 10 ms

    private static FlowReport row(long sent, long pending, double rate) {
        return new FlowReport("job_1", "a", "b", sent, pending, -1, rate, false);
    }

    /** The flow after {@code ms} at {@link #RATE} from 500 MB sent of 1 GB. */
    private static List<FlowReport> steady(long ms) {
        long sent = 500_000_000L + (long) (RATE * ms / 1000);
        return Collections.singletonList(row(sent, 1_000_000_000L - sent, RATE));
    }

    @Test
    void toleranceZeroSendsEveryEvaluation() {
        ReportGate g = new ReportGate(0, 10 * MS, 100 * MS);
        for (int i = 0; i < 5; i++) {
            assertTrue(g.offer(steady(0), i * 10 * MS));
        }
    }

    @Test
    void aFlowMovingAsPredictedIsSentOnlyAsAHeartbeat() {
        ReportGate g = new ReportGate(0.01, 10 * MS, 100 * MS);
        assertTrue(g.offer(steady(0), 0), "the first evaluation is always sent");
        for (long t = 10; t < 100; t += 10) {
            assertFalse(g.offer(steady(t), t * MS), "at " + t + " ms");
        }
        assertTrue(g.offer(steady(100), 100 * MS), "heartbeat");
        assertFalse(g.offer(steady(110), 110 * MS));
    }

    @Test
    void aStalledFlowIsSentOnceItsDeviationExceedsTheTolerance() {
        ReportGate g = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        assertTrue(g.offer(steady(0), 0));
        // Stalled at 500 MB: the prediction would run ahead by 1 MB per 10 ms.
        List<FlowReport> stalled = Collections.singletonList(row(500_000_000L, 500_000_000L, 0));
        // The rate dropped from 100 MB/s to 0: far beyond the rate tolerance, sent at once.
        assertTrue(g.offer(stalled, 10 * MS));
        // A flow whose rate is still reported as 100 MB/s but whose bytes lag: sent once 5 MB behind.
        ReportGate h = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        assertTrue(h.offer(steady(0), 0));
        int sentAt = -1;
        for (int t = 10; t <= 100 && sentAt < 0; t += 10) {
            List<FlowReport> lagging = Collections.singletonList(row(500_000_000L + (long) (RATE * t / 2000),
                    500_000_000L - (long) (RATE * t / 2000), RATE));
            if (h.offer(lagging, t * MS)) {
                sentAt = t;
            }
        }
        // Half the predicted progress: 0.5 MB behind per 10 ms. The allowance is 1 % of the predicted remaining
        // bytes (490 MB at 100 ms: 4.9 MB): 4.5 MB behind at 90 ms is kept back, 5 MB at 100 ms is sent.
        assertEquals(100, sentAt);
    }

    @Test
    void smallDeviationsBelowOneBlockAreNotReported() {
        ReportGate g = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        // At the start of a flow (nothing sent), the allowance is one block.
        assertTrue(g.offer(Collections.singletonList(row(0, 10_000_000L, RATE)), 0));
        long predicted = (long) (RATE * 0.01);
        assertFalse(g.offer(Collections.singletonList(row(predicted + 60_000, 10_000_000L - predicted - 60_000,
                RATE)), 10 * MS), "60 KB ahead: under one block");
        assertTrue(g.offer(Collections.singletonList(row(predicted + 70_000, 10_000_000L - predicted - 70_000,
                RATE)), 10 * MS), "70 KB ahead: over one block");
    }

    @Test
    void newDemandAFinishAndANewFlowAreSentAtOnce() {
        ReportGate g = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        assertTrue(g.offer(steady(0), 0));
        long sent = 500_000_000L + 1_000_000L;
        // 20 MB more requested (size grew by 2 % of the smaller side, 5 MB allowance).
        assertTrue(g.offer(Collections.singletonList(row(sent, 1_020_000_000L - sent, RATE)), 10 * MS));
        assertTrue(g.offer(Collections.singletonList(new FlowReport("job_1", "a", "b", sent, 0, -1, 0, true)),
                20 * MS), "finished");
        assertFalse(g.offer(Collections.singletonList(new FlowReport("job_1", "a", "b", sent, 0, -1, 0, true)),
                30 * MS), "still finished: nothing new");
        ReportGate h = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        assertTrue(h.offer(steady(0), 0));
        assertTrue(h.offer(Arrays.asList(steady(10).get(0), new FlowReport("job_2", "a", "c", 0, 5, -1, -1, false)),
                10 * MS), "a new flow");
        assertFalse(h.offer(Arrays.asList(steady(20).get(0), new FlowReport("job_2", "a", "c", 0, 5, -1, -1, false)),
                20 * MS));
        assertTrue(h.offer(steady(30), 30 * MS), "a flow gone");
    }

    @Test
    void aRateChangeBeyondTheToleranceAndOneBlockPerIntervalIsSent() {
        ReportGate g = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        assertTrue(g.offer(steady(0), 0));
        long sent = 500_000_000L + 1_000_000L;
        // 6 MB/s off (6 %, but under one 64 KiB block per 10 ms = 6.55 MB/s: the measurement's quantization).
        assertFalse(g.offer(Collections.singletonList(row(sent, 1_000_000_000L - sent, RATE + 6e6)), 10 * MS));
        assertTrue(g.offer(Collections.singletonList(row(sent, 1_000_000_000L - sent, RATE + 7e6)), 10 * MS));
    }

    @Test
    void resetSendsTheNextEvaluation() {
        ReportGate g = new ReportGate(0.01, 10 * MS, 1_000 * MS);
        assertTrue(g.offer(steady(0), 0));
        assertFalse(g.offer(steady(10), 10 * MS));
        g.reset();
        assertTrue(g.offer(steady(20), 20 * MS));
    }

    @Test
    void predictionIsCappedAtTheSizeAndStopsWhenFinished() {
        FlowReport r = row(900, 100, 1000);
        assertEquals(950.0, r.predictedSent(0.05), 1e-9);
        assertEquals(1000.0, r.predictedSent(10), 1e-9);
        assertEquals(900.0, new FlowReport("j", "a", "b", 900, 0, 900, 0, true).predictedSent(1), 1e-9);
        assertEquals(900.0, row(900, 100, -1).predictedSent(1), 1e-9, "no measured rate: no growth");
    }

    @Test
    void badParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ReportGate(-0.1, 10 * MS, 100 * MS));
        assertThrows(IllegalArgumentException.class, () -> new ReportGate(Double.NaN, 10 * MS, 100 * MS));
        assertThrows(IllegalArgumentException.class, () -> new ReportGate(0.01, 0, 100 * MS));
        assertThrows(IllegalArgumentException.class,
                () -> ClientSettings.builder("h", 1).reportHeartbeatMillis(5_000).build());
    }
}
