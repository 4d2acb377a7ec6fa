package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;

import java.util.function.IntToDoubleFunction;

/**
 * P7 of SCHEDULERS.md §0.5: the least-attained-service queue of a coflow that has sent {@code s}
 * bytes, with {@code K} queues whose thresholds are {@code Q1·E^j}. Demotion happens at {@code s >=}
 * threshold (CoflowSim uses {@code >}; the spec's choice reproduces the Fai Fig. 1 example).
 *
 * <p>A coflow counts as having reached a threshold {@code T} once it has sent {@code T} minus a relative
 * 1e-9 of {@code T}: drivers advance {@code sent} in floating point, so a crossing they were asked to wake
 * up for lands a few ulps either side of {@code T}, and without the slack the coflow would stay a whole
 * extra epoch in its old queue. The slack is far above rounding error at the scales where it matters and
 * capped at half a byte (0.01 B at 10 MiB).
 */
public final class LasQueues {
    private static final double THRESHOLD_SLACK = 1e-9;
    /** Never more than half a byte, so that byte-exact thresholds stay byte-exact at any scale. */
    private static final double MAX_SLACK_BYTES = 0.5;

    private final int queues;
    private final double multiplier;
    private final double firstThreshold;

    public LasQueues(int queues, double multiplier, double firstThreshold) {
        if (queues < 1) {
            throw new IllegalArgumentException("number of queues K must be >= 1, got " + queues);
        }
        if (!(multiplier > 1) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("threshold multiplier E must be finite and > 1, got " + multiplier);
        }
        if (!(firstThreshold > 0) || Double.isInfinite(firstThreshold)) {
            throw new IllegalArgumentException("first threshold Q1 must be finite and > 0, got " + firstThreshold);
        }
        this.queues = queues;
        this.multiplier = multiplier;
        this.firstThreshold = firstThreshold;
    }

    public int queues() {
        return queues;
    }

    /** {@code q(s) = |{ j in 0..K-2 : Q1·E^j <= s }|} (with the rounding slack described above). */
    public int queueOf(double sent) {
        int q = 0;
        double threshold = firstThreshold;
        double s = sent + Math.min(MAX_SLACK_BYTES, THRESHOLD_SLACK * Math.max(1.0, sent));
        while (q < queues - 1 && s >= threshold) {
            q++;
            threshold *= multiplier;
        }
        return q;
    }

    /** Upper threshold of queue {@code q} ({@code +∞} for the last queue). */
    public double upperThreshold(int q) {
        if (q >= queues - 1) {
            return Double.POSITIVE_INFINITY;
        }
        return firstThreshold * Math.pow(multiplier, q);
    }

    /** The queue of every active coflow from the bytes all its flows sent, indexed like {@code state.coflows()}. */
    public int[] queuesOf(ClusterState state) {
        int[] q = new int[state.coflowCount()];
        for (int c = 0; c < q.length; c++) {
            q[c] = queueOf(state.sentBy(c));
        }
        return q;
    }

    /**
     * {@link #nextCrossing(ClusterState, Decision)} with the decided rates as an array indexed like
     * {@code state.flows()}; with {@code early}, a lower bound instead: the earliest instant at which some
     * coflow's queue could change, counting the rounding slack of {@link #queueOf} (a coflow moves up to
     * half a byte before its threshold). Drivers that skip wake-ups use the bound to prove that the
     * queues stand until then.
     */
    public double nextCrossing(ClusterState state, double[] rate, boolean early) {
        return crossing(state, c -> sumOver(state, c, f -> rate[f]), early);
    }

    /**
     * The earliest instant at which a coflow, sending at the decided rates, reaches its queue's upper
     * threshold ({@code +∞} if none will): {@code min_C now + (Q_hi(q_C) − s_C) / Σ_f r_f} (spec §4). It aims
     * at the threshold itself, not at the slack, so the crossing is seen despite rounding.
     */
    public double nextCrossing(ClusterState state, Decision decision) {
        return crossing(state, c -> sumOver(state, c, f -> decision.rateOf(state, f)), false);
    }

    /**
     * {@link #nextCrossing(ClusterState, double[], boolean)} from the coflows' total rates ({@link #coflowRates}), so
     * that a scheduler that needs both the exact crossing and the early bound sums the flows' rates once.
     */
    public double nextCrossingAt(ClusterState state, double[] coflowRate, boolean early) {
        return crossing(state, c -> coflowRate[c], early);
    }

    /**
     * Each coflow's total rate, indexed like {@code state.coflows()}: {@code rate} summed over its unfinished flows
     * in flow order (the sum the crossings take), except that a coflow in the last queue, which has no threshold to
     * cross, or one marked in {@code atZero} (its flows known to be at 0; may be null) gets 0 without the pass.
     */
    public double[] coflowRates(ClusterState state, double[] rate, boolean[] atZero) {
        double[] total = new double[state.coflowCount()];
        for (int c = 0; c < total.length; c++) {
            if ((atZero == null || !atZero[c]) && queueOf(state.sentBy(c)) < queues - 1) {
                total[c] = sumOver(state, c, f -> rate[f]);
            }
        }
        return total;
    }

    private static double sumOver(ClusterState state, int coflow, IntToDoubleFunction rateOf) {
        double r = 0;
        for (int f : state.unfinishedFlowsOf(coflow)) {
            r += rateOf.applyAsDouble(f);
        }
        return r;
    }

    /** The one loop behind the {@code nextCrossing}s; {@code rateOf} maps a coflow index to its total rate. */
    private double crossing(ClusterState state, IntToDoubleFunction rateOf, boolean early) {
        double wake = Double.POSITIVE_INFINITY;
        double eps = state.network().rateEpsilon();
        for (int c = 0; c < state.coflowCount(); c++) {
            double sent = state.sentBy(c);
            double threshold = upperThreshold(queueOf(sent));
            if (Double.isInfinite(threshold)) {
                continue;
            }
            double r = rateOf.applyAsDouble(c);
            if (early) {
                threshold -= Math.min(MAX_SLACK_BYTES, THRESHOLD_SLACK * Math.max(1.0, threshold));
                if (r > 0) {
                    wake = Math.min(wake, state.now() + Math.max(0.0, threshold - sent) / r);
                }
            } else if (r > eps) {
                wake = Math.min(wake, state.now() + Math.max(0.0, threshold - sent) / r);
            }
        }
        return wake;
    }
}
