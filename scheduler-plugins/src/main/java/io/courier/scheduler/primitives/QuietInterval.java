package io.courier.scheduler.primitives;

/**
 * What a scheduler remembers of its last decision to answer
 * {@link io.courier.scheduler.CoflowScheduler#skipWakeup}: when it decided, and until when it has proved
 * that the decision stands as long as the network stays quiet (rates as decided, no arrival, no
 * completion). The proof is a lower bound computed from the decided rates; a wake-up counts as covered
 * only with a margin below it ({@code 1e-6} of the interval plus {@code 1e-9} s relative to the clock),
 * so that the driver's rounding of bytes sent can never make a covered wake-up see a different state.
 *
 * <p>Mutable: one per scheduler instance, used from the scheduler's single calling thread.
 */
public final class QuietInterval {
    private double decidedAt = Double.NaN;
    private double quietUntil = Double.NEGATIVE_INFINITY;

    /** Records a decision taken at {@code now} that provably stands, if quiet, until before {@code until}. */
    public void decided(double now, double until) {
        decidedAt = now;
        quietUntil = until;
    }

    /** Forgets the proof (the scheduler's state changed in a way the bound did not cover). */
    public void clear() {
        decidedAt = Double.NaN;
        quietUntil = Double.NEGATIVE_INFINITY;
    }

    /** Whether a quiet wake-up at {@code now} is covered by the last proof. */
    public boolean covers(double now) {
        if (Double.isNaN(decidedAt) || !(now >= decidedAt)) {
            return false;
        }
        if (quietUntil == Double.POSITIVE_INFINITY) {
            return true;
        }
        double margin = 1e-6 * (quietUntil - decidedAt) + 1e-9 * Math.max(1.0, Math.abs(now));
        return now < quietUntil - margin;
    }

    /** When the last proved decision was taken (NaN when there is none). */
    public double decidedAt() {
        return decidedAt;
    }
}
