package io.courier.scheduler.skipl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.courier.scheduler.skipl.LinkBandwidthEstimator.Outcome;
import io.courier.scheduler.skipl.LinkBandwidthEstimator.Step;
import org.junit.jupiter.api.Test;

/** Alg. 2 of SCHEDULERS.md §8 as a state machine, fed with stable flags and per-link sums directly. */
class LinkBandwidthEstimatorTest {
    private static final double EPS = 1e-9;

    /** T-SKIPL-2 on the estimator: cap 100, T = 10, silenceTime 1, Δ = 0.1; background from 0.5. */
    @Test
    void tSkipl2StateMachine() {
        LinkBandwidthEstimator e = LinkBandwidthEstimator.initial(100, 10, 1.0);
        assertEquals(100, e.available(), EPS);
        assertEquals(LinkBandwidthEstimator.NO_CONGESTION, e.lastCongestion(), 0.0);
        double t = 0.1;
        for (int k = 1; k <= 5; k++, t += 0.1) { // before the background: desired 100, delivered 100
            Step s = e.observe(t, k > 1, 100, 100);
            assertEquals(k > 1 ? Outcome.UNCHANGED : Outcome.SKIPPED_UNSTABLE, s.outcome(), "t=" + t);
            e = s.estimator();
        }
        // t = 0.6: 50 after 100, not stable: the link is skipped.
        Step s = e.observe(t, false, 100, 50);
        assertEquals(Outcome.SKIPPED_UNSTABLE, s.outcome());
        assertSame(e, s.estimator());
        t += 0.1;
        // t = 0.7: stable 50 against desired 100: congestion, B = 50.
        s = e.observe(t, true, 100, 50);
        assertEquals(Outcome.CONGESTION, s.outcome());
        e = s.estimator();
        assertEquals(50, e.available(), EPS);
        assertEquals(0.7, e.lastCongestion(), EPS);
        t += 0.1;
        // t = 0.8: the reschedule paused the flow; 0 after 50 is not stable.
        s = e.observe(t, false, 0, 0);
        assertEquals(Outcome.SKIPPED_UNSTABLE, s.outcome());
        t += 0.1;
        // t = 0.9 .. 1.7: stable 0 against desired 0; the silence (exactly 1.0 at 1.7) has not expired.
        for (; t < 1.75; t += 0.1) {
            s = e.observe(t, true, 0, 0);
            assertEquals(Outcome.UNCHANGED, s.outcome(), "t=" + t);
            e = s.estimator();
            assertEquals(50, e.available(), EPS);
        }
        // t = 1.8: 1.8 − 0.7 > 1, B back to the capacity.
        s = e.observe(t, true, 0, 0);
        assertEquals(1.8, t, 1e-9);
        assertEquals(Outcome.SILENCE_EXPIRED, s.outcome());
        assertEquals(100, s.estimator().available(), EPS);
        assertEquals(LinkBandwidthEstimator.NO_CONGESTION, s.estimator().lastCongestion(), 0.0);
    }

    /** Case 3 follows the text: equal throughput and estimate keep the estimate; a larger throughput resets it. */
    @Test
    void case3ComparesThroughputWithTheEstimate() {
        LinkBandwidthEstimator e = LinkBandwidthEstimator.initial(100, 10, 1.0).observe(0.7, true, 100, 50)
                .estimator();
        // The scheduler now asks for exactly B and gets it: the pseudo-code's "r_l < B" would reset here.
        Step same = e.observe(0.9, true, 50, 50);
        assertEquals(Outcome.UNCHANGED, same.outcome());
        assertEquals(50, same.estimator().available(), EPS);
        Step more = e.observe(1.0, true, 60, 60);
        assertEquals(Outcome.THROUGHPUT_RECOVERED, more.outcome());
        assertEquals(100, more.estimator().available(), EPS);
        assertEquals(LinkBandwidthEstimator.NO_CONGESTION, more.estimator().lastCongestion(), 0.0);
    }

    @Test
    void aDeficitOfExactlyTIsNotCongestionAndCase3NeedsAPastCongestion() {
        LinkBandwidthEstimator e = LinkBandwidthEstimator.initial(100, 10, 1.0);
        assertEquals(Outcome.UNCHANGED, e.observe(1, true, 60, 50).outcome());
        assertEquals(Outcome.CONGESTION, e.observe(1, true, 60.5, 50).outcome());
        // Without a remembered congestion neither the silence nor a high throughput changes anything.
        assertEquals(Outcome.UNCHANGED, e.observe(5, true, 0, 0).outcome());
    }

    @Test
    void repeatedCongestionRefreshesTheEstimateAndTheSilence() {
        LinkBandwidthEstimator e = LinkBandwidthEstimator.initial(100, 10, 1.0).observe(0.7, true, 100, 50)
                .estimator();
        Step again = e.observe(1.5, true, 50, 30);
        assertEquals(Outcome.CONGESTION, again.outcome());
        assertEquals(30, again.estimator().available(), EPS);
        assertEquals(1.5, again.estimator().lastCongestion(), EPS);
        assertEquals(Outcome.UNCHANGED, again.estimator().observe(2.0, true, 30, 30).outcome());
    }

    @Test
    void theEstimateNeverExceedsTheCapacity() {
        // A measurement above the capacity (noise) cannot raise B above cap(l).
        LinkBandwidthEstimator e = LinkBandwidthEstimator.initial(100, 10, 1.0);
        assertEquals(100, e.observe(1, true, 150, 120).estimator().available(), EPS);
    }

    @Test
    void invalidInputsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> LinkBandwidthEstimator.initial(-1, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> LinkBandwidthEstimator.initial(100, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> LinkBandwidthEstimator.initial(100, 10, Double.NaN));
        LinkBandwidthEstimator e = LinkBandwidthEstimator.initial(100, 10, 1);
        assertThrows(IllegalArgumentException.class, () -> e.observe(1, true, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> e.observe(1, true, 0, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> e.observe(Double.NaN, true, 0, 0));
    }
}
