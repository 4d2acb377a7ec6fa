package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;

/**
 * The next queue crossing of a LAS scheduler's last decision (Aalo, Fai): computed once when the decision is made,
 * from each coflow's total rate, for the scheduler's proof of a quiet interval (the early bound), for the wake-up
 * after a skipped one, and for {@code nextWakeup} on the decision just made, which would otherwise sum every
 * coflow's rates again. Owned by one scheduler instance and used by its driver's thread only.
 */
public final class DecidedCrossing {
    private final LasQueues queues;
    private double exact = Double.POSITIVE_INFINITY;
    /** The rate array of the decision {@link #exact} was computed for (null before the first). */
    private double[] decidedRates;

    public DecidedCrossing(LasQueues queues) {
        this.queues = queues;
    }

    /**
     * Notes the exact crossing at the rates of the decision being made ({@code rate}, adopted by it and not modified
     * after) and returns the early bound ({@link LasQueues#nextCrossing(ClusterState, double[], boolean)} with
     * {@code early}).
     *
     * @param atZero coflows whose flows are known to be at rate 0 (may be null), see {@link LasQueues#coflowRates}
     */
    public double decided(ClusterState state, double[] rate, boolean[] atZero) {
        double[] coflowRate = queues.coflowRates(state, rate, atZero);
        exact = queues.nextCrossingAt(state, coflowRate, false);
        decidedRates = rate;
        return queues.nextCrossingAt(state, coflowRate, true);
    }

    /** The exact crossing of the last decision noted ({@code +∞} before the first). */
    public double exact() {
        return exact;
    }

    /**
     * {@link LasQueues#nextCrossing(ClusterState, Decision)}: the noted crossing when {@code decision} is the one
     * noted last, on this state or a view of it (its own rate array), else summed afresh.
     */
    public double of(ClusterState state, Decision decision) {
        boolean known = decidedRates != null && decision.ratesMadeOn(state) == decidedRates;
        return known ? exact : queues.nextCrossing(state, decision);
    }
}
