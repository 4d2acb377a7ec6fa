package io.courier.scheduler.skipl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.testing.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * T-SKIPL-3 (SCHEDULERS.md §8): the SkipL paper's §III motivation example. Ports and links carry
 * 100 MB/s (units: MB, s). C1 = 150 MB h1→h5 over L1S1, arriving at 0; C2 = 150 MB h1→h8 over L1S2,
 * arriving at 0.1; a 100 MB background flow F_b on L1S1 starts at 0.5 and shares the link equally.
 * Finish times are absolute.
 */
class SkipLMotivationExampleTest {
    private static final double EPS = 1e-9;

    private static Scenario scenario() {
        return Scenario.withCapacity(100).hosts("h1", "h5", "h8").link("L1S1", 100).link("L1S2", 100)
                .coflow("C1", 0).flowVia("C1F", "h1", "h5", 150, "L1S1")
                .coflow("C2", 0.1).flowVia("C2F", "h1", "h8", 150, "L1S2")
                .build();
    }

    private static BackgroundTrafficLoop environment(Scenario sc) {
        return BackgroundTrafficLoop.of(sc, 0.1).background("Fb", 100, 0.5, "L1S1");
    }

    /** B(L1S1) and its last congestion time after every decision: when was congestion detected and forgotten. */
    private static final class EstimateLog implements BackgroundTrafficLoop.Probe {
        private final SkipLScheduler skipl;
        private final List<double[]> log = new ArrayList<>();

        EstimateLog(SkipLScheduler skipl) {
            this.skipl = skipl;
        }

        @Override
        public void afterDecision(double now, ClusterState state, Decision d) {
            log.add(new double[] {now, skipl.availableBandwidth(0), skipl.lastCongestion(0)});
        }

        /** B(L1S1) right after the last decision at or before {@code t}. */
        double at(double t) {
            return entryAt(t)[1];
        }

        double lastCongestionAt(double t) {
            return entryAt(t)[2];
        }

        private double[] entryAt(double t) {
            double[] found = null;
            for (double[] e : log) {
                if (e[0] <= t + 1e-9) {
                    found = e;
                }
            }
            if (found == null) {
                throw new AssertionError("no decision at or before t=" + t);
            }
            return found;
        }
    }

    @Test
    void tSkipl3WithDefaults() {
        Scenario sc = scenario();
        SkipLScheduler skipl = SkipLScheduler.withDefaults();
        EstimateLog b = new EstimateLog(skipl);
        BackgroundTrafficLoop.Result r = environment(sc).run(skipl, b);
        assertEquals(2.2, r.coflowFinish(sc.coflow("C2")), EPS);
        assertEquals(3.1, r.coflowFinish(sc.coflow("C1")), EPS);
        assertEquals(1.6, r.backgroundFinish("Fb"), EPS);
        // Before the background C1 goes first (τ 1.4 < 1.5 at 0.1) and takes all of h1.
        assertEquals(100, r.decisionAt(0.5).rateOf(sc.flow("C1F")), EPS);
        assertEquals(0, r.decisionAt(0.5).rateOf(sc.flow("C2F")), EPS);
        // 0.6 is the first measurement with the background, but not stable yet.
        assertEquals(100, b.at(0.6), EPS);
        // 0.7: stable 50 against desired 100: B = 50, τ_C1 = 90/50 = 1.8 > τ_C2 = 1.5: C1 paused.
        assertEquals(50, b.at(0.7), EPS);
        assertEquals(0.7, b.lastCongestionAt(0.7), EPS);
        assertEquals(LinkBandwidthEstimator.NO_CONGESTION, b.lastCongestionAt(1.8), 0.0);
        assertEquals(0, r.decisionAt(0.7).rateOf(sc.flow("C1F")), EPS);
        assertEquals(100, r.decisionAt(0.7).rateOf(sc.flow("C2F")), EPS);
        // Silence of exactly 1 s at 1.7 has not expired; at 1.8 it has: B = 100, order unchanged (0.4 < 0.9).
        assertEquals(50, b.at(1.75), EPS);
        assertEquals(100, b.at(1.8), EPS);
        assertEquals(0, r.decisionAt(1.8).rateOf(sc.flow("C1F")), EPS);
        assertEquals(100, r.decisionAt(1.8).rateOf(sc.flow("C2F")), EPS);
        assertEquals(2.65, (r.coflowFinish(sc.coflow("C1")) + r.coflowFinish(sc.coflow("C2"))) / 2, EPS);
    }

    /** A stale estimate keeps C1 at 50 MB/s after F_b has ended: C1 finishes at 4.0. */
    @Test
    void tSkipl3LongSilence() {
        Scenario sc = scenario();
        BackgroundTrafficLoop.Result r = environment(sc).run(new SkipLScheduler(0.1, 0.1, 5.0, 0.05));
        assertEquals(2.2, r.coflowFinish(sc.coflow("C2")), EPS);
        assertEquals(4.0, r.coflowFinish(sc.coflow("C1")), EPS);
        assertEquals(50, r.decisionAt(2.3).rateOf(sc.flow("C1F")), EPS);
    }

    /** A premature re-probe at 1.1 costs a second detection at 1.3: 2.4 / 3.2. */
    @Test
    void tSkipl3ShortSilence() {
        Scenario sc = scenario();
        BackgroundTrafficLoop.Result r = environment(sc).run(new SkipLScheduler(0.1, 0.1, 0.3, 0.05));
        assertEquals(2.4, r.coflowFinish(sc.coflow("C2")), EPS);
        assertEquals(3.2, r.coflowFinish(sc.coflow("C1")), EPS);
        assertEquals(1.7, r.backgroundFinish("Fb"), EPS);
        assertEquals(100, r.decisionAt(1.1).rateOf(sc.flow("C1F")), EPS);
        assertEquals(0, r.decisionAt(1.3).rateOf(sc.flow("C1F")), EPS);
    }

    /** With detection disabled (T = cap) SkipL is congestion-agnostic, like Varys: 2.5 / 4.0 (avg 3.25). */
    @Test
    void tSkipl3CongestionAgnostic() {
        Scenario sc = scenario();
        BackgroundTrafficLoop.Result r = environment(sc).run(new SkipLScheduler(0.1, 1.0, 1.0, 0.05));
        assertEquals(2.5, r.coflowFinish(sc.coflow("C1")), EPS);
        assertEquals(4.0, r.coflowFinish(sc.coflow("C2")), EPS);
        assertEquals(2.5, r.backgroundFinish("Fb"), EPS);
    }
}
