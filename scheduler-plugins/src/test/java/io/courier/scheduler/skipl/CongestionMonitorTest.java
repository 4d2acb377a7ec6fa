package io.courier.scheduler.skipl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.skipl.LinkBandwidthEstimator.Outcome;
import org.junit.jupiter.api.Test;

/** Alg. 2 with the [resolved] stability filter, driven by raw per-flow measurements (SCHEDULERS.md §8). */
class CongestionMonitorTest {
    private static final double EPS = 1e-9;

    private static Network oneLink(double linkCapacity) {
        return Network.builder().host("h0", 100, 100).host("h1", 100, 100).host("h2", 100, 100)
                .link("l", linkCapacity).link("k", 20).build();
    }

    private static Flow flow(long id, int src, int dst, double measured, double desired, int... path) {
        return Flow.builder(FlowId.of(id), CoflowId.of(1), src, dst).size(1e6).path(path)
                .measuredRate(measured).lastDesiredRate(desired).build();
    }

    private static ClusterState state(Network n, double now, Flow... flows) {
        ClusterState.Builder b = ClusterState.builder(n).now(now).coflow(Coflow.of(1, 0));
        for (Flow f : flows) {
            b.flow(f);
        }
        return b.build();
    }

    /** T-SKIPL-2 from raw measurements: cap 100, T = 10, δ = 5, silenceTime 1, Δ = 0.1, background at 0.5. */
    @Test
    void tSkipl2FromMeasurements() {
        Network n = oneLink(100);
        CongestionMonitor m = new CongestionMonitor(n, 0.1, 1.0, 0.05);
        double t = 0.1;
        for (int k = 1; k <= 5; k++, t += 0.1) {
            assertFalse(m.measure(state(n, t, flow(1, 0, 1, 100, 100, 0))));
            assertEquals(k == 1 ? Outcome.SKIPPED_UNSTABLE : Outcome.UNCHANGED, m.lastOutcome(0), "t=" + t);
        }
        // t = 0.6: raw 50, previous 100: skipped.
        assertFalse(m.measure(state(n, t, flow(1, 0, 1, 50, 100, 0))));
        assertEquals(Outcome.SKIPPED_UNSTABLE, m.lastOutcome(0));
        assertEquals(100, m.available(0), EPS);
        t += 0.1;
        // t = 0.7: 50 after 50: stable; r_l = 100, r~_l = 50: B = 50, lastTime = 0.7.
        assertTrue(m.measure(state(n, t, flow(1, 0, 1, 50, 100, 0))));
        assertEquals(Outcome.CONGESTION, m.lastOutcome(0));
        assertEquals(50, m.available(0), EPS);
        assertEquals(0.7, m.estimator(0).lastCongestion(), EPS);
        t += 0.1;
        // The reschedule set the desired rate to 0. t = 0.8: 0 after 50: skipped.
        assertFalse(m.measure(state(n, t, flow(1, 0, 1, 0, 0, 0))));
        assertEquals(Outcome.SKIPPED_UNSTABLE, m.lastOutcome(0));
        t += 0.1;
        // t = 0.9 .. 1.7: stable 0, r_l = r~_l = 0: unchanged.
        for (; t < 1.75; t += 0.1) {
            assertFalse(m.measure(state(n, t, flow(1, 0, 1, 0, 0, 0))));
            assertEquals(Outcome.UNCHANGED, m.lastOutcome(0), "t=" + t);
            assertEquals(50, m.available(0), EPS);
        }
        // t = 1.8: the silence expired: B = 100, lastTime = −1.
        assertTrue(m.measure(state(n, t, flow(1, 0, 1, 0, 0, 0))));
        assertEquals(Outcome.SILENCE_EXPIRED, m.lastOutcome(0));
        assertEquals(100, m.available(0), EPS);
        assertEquals(LinkBandwidthEstimator.NO_CONGESTION, m.estimator(0).lastCongestion(), 0.0);
    }

    @Test
    void aLinkIsEvaluatedOnlyWhenAllItsFlowsAreStable() {
        Network n = oneLink(100);
        CongestionMonitor m = new CongestionMonitor(n, 0.1, 1.0, 0.05);
        m.measure(state(n, 0.1, flow(1, 0, 1, 40, 50, 0), flow(2, 2, 1, 40, 50, 0)));
        // Flow 1 is stable and far below its desired rate, but flow 2 moved by 10 > δ = 5: skip the link.
        assertFalse(m.measure(state(n, 0.2, flow(1, 0, 1, 40, 50, 0), flow(2, 2, 1, 30, 50, 0))));
        assertEquals(Outcome.SKIPPED_UNSTABLE, m.lastOutcome(0));
        // Both stable: r_l = 100, r~_l = 40 + 32 = 72, deficit 28 > T = 10.
        assertTrue(m.measure(state(n, 0.3, flow(1, 0, 1, 40, 50, 0), flow(2, 2, 1, 32, 50, 0))));
        assertEquals(72, m.available(0), EPS);
    }

    @Test
    void stabilityUsesTheSmallestCapacityOnThePath() {
        // Path {l (100), k (20)}: δ = 0.05·20 = 1, and T on k is 0.1·20 = 2.
        Network n = oneLink(100);
        CongestionMonitor m = new CongestionMonitor(n, 0.1, 1.0, 0.05);
        m.measure(state(n, 0.1, flow(1, 0, 1, 10, 20, 0, 1)));
        assertFalse(m.measure(state(n, 0.2, flow(1, 0, 1, 11.5, 20, 0, 1))));
        assertEquals(Outcome.SKIPPED_UNSTABLE, m.lastOutcome(1));
        assertTrue(m.measure(state(n, 0.3, flow(1, 0, 1, 11, 20, 0, 1))));
        // Both links saw the deficit 9: l (T = 10) is unchanged, k (T = 2) is congested at 11.
        assertEquals(Outcome.UNCHANGED, m.lastOutcome(0));
        assertEquals(Outcome.CONGESTION, m.lastOutcome(1));
        assertEquals(100, m.available(0), EPS);
        assertEquals(11, m.available(1), EPS);
    }

    @Test
    void aFlowWithoutAPreviousMeasurementOrDecisionIsInTransition() {
        Network n = oneLink(100);
        CongestionMonitor m = new CongestionMonitor(n, 0.1, 1.0, 0.05);
        Flow fresh = Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).size(100).path(0).build();
        assertFalse(m.measure(state(n, 0.1, fresh)));
        assertEquals(Outcome.SKIPPED_UNSTABLE, m.lastOutcome(0));
        Flow measuredOnly = fresh.toBuilder().measuredRate(0).build();
        assertFalse(m.measure(state(n, 0.2, measuredOnly)));
        assertFalse(m.measure(state(n, 0.3, measuredOnly)));
        assertEquals(Outcome.SKIPPED_UNSTABLE, m.lastOutcome(0));
        // A link without flows is evaluated with r_l = r~_l = 0.
        assertEquals(Outcome.UNCHANGED, m.lastOutcome(1));
    }
}
