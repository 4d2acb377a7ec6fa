package io.courier.scheduler.skipl;

/**
 * The available-bandwidth estimate {@code B(l)} of one extra link and the time of its last detected
 * congestion: SkipL's Alg. 2 (SCHEDULERS.md §8) as an immutable state machine. Each measurement instant
 * feeds it whether all the link's flows had stable throughput, the sum of their desired rates
 * {@code r_l} (eq. 1) and the sum of their measured throughputs {@code r̃_l} (eq. 2); it answers with
 * the next state and which case fired.
 *
 * <p>Two [resolved] readings of the spec: a link with a flow in transition is skipped (line 0b), and
 * case 3 compares the <em>throughput</em> with the estimate, as the paper's text does, not the desired
 * rate of its pseudo-code. The estimate is kept within {@code [0, cap(l)]}, so an allocation planned
 * against it never exceeds the physical capacity.
 */
public final class LinkBandwidthEstimator {
    /** {@link #lastCongestion()} when no congestion is in memory (the paper's {@code lastTime = −1}). */
    public static final double NO_CONGESTION = -1.0;

    /** Which line of Alg. 2 decided the step. */
    public enum Outcome {
        /** Line 0b: some flow on the link had no stable throughput; nothing was evaluated. */
        SKIPPED_UNSTABLE(false),
        /** Case 1: the link carries less than was asked by more than T; {@code B ← r̃_l}. */
        CONGESTION(true),
        /** Case 2: no congestion for longer than silenceTime; {@code B ← cap}. */
        SILENCE_EXPIRED(true),
        /** Case 3: the throughput exceeded the estimate, so the congestion is gone; {@code B ← cap}. */
        THROUGHPUT_RECOVERED(true),
        /** No case fired. */
        UNCHANGED(false);

        private final boolean changed;

        Outcome(boolean changed) {
            this.changed = changed;
        }

        /** Whether the step counts as "congestion detected / estimate changed", which triggers a reschedule. */
        public boolean changed() {
            return changed;
        }
    }

    private final double capacity;
    private final double threshold;
    private final double silenceTime;
    private final double available;
    private final double lastCongestion;

    private LinkBandwidthEstimator(double capacity, double threshold, double silenceTime, double available,
            double lastCongestion) {
        this.capacity = capacity;
        this.threshold = threshold;
        this.silenceTime = silenceTime;
        this.available = available;
        this.lastCongestion = lastCongestion;
    }

    /**
     * The initial state, {@code B = cap} and no congestion in memory.
     *
     * @param capacity    physical capacity of the link, bytes/s (finite, {@code >= 0})
     * @param threshold   T in bytes/s ({@code >= 0}; {@code +∞} disables detection)
     * @param silenceTime seconds after the last congestion at which the estimate is reset ({@code >= 0},
     *                    {@code +∞} = never)
     */
    public static LinkBandwidthEstimator initial(double capacity, double threshold, double silenceTime) {
        if (!Double.isFinite(capacity) || capacity < 0) {
            throw new IllegalArgumentException("SkipL Alg. 2: link capacity must be finite and >= 0, got " + capacity);
        }
        if (Double.isNaN(threshold) || threshold < 0) {
            throw new IllegalArgumentException("SkipL Alg. 2: congestion threshold T must be >= 0, got " + threshold);
        }
        if (Double.isNaN(silenceTime) || silenceTime < 0) {
            throw new IllegalArgumentException("SkipL Alg. 2: silenceTime must be >= 0, got " + silenceTime);
        }
        return new LinkBandwidthEstimator(capacity, threshold, silenceTime, capacity, NO_CONGESTION);
    }

    public double capacity() {
        return capacity;
    }

    /** The congestion threshold T in bytes/s. */
    public double threshold() {
        return threshold;
    }

    public double silenceTime() {
        return silenceTime;
    }

    /** The estimate {@code B(l)}, bytes/s, in {@code [0, capacity]}. */
    public double available() {
        return available;
    }

    /** Time of the last detected congestion, or {@link #NO_CONGESTION}. */
    public double lastCongestion() {
        return lastCongestion;
    }

    /**
     * One measurement instant of Alg. 2.
     *
     * @param now        the measurement time
     * @param stable     whether every flow on the link had two consecutive measurements closer than δ
     * @param desired    {@code r_l}: the sum of the desired rates of the link's flows
     * @param throughput {@code r̃_l}: the sum of their measured throughputs
     */
    public Step observe(double now, boolean stable, double desired, double throughput) {
        if (!Double.isFinite(now)) {
            throw new IllegalArgumentException("SkipL Alg. 2: measurement time must be finite, got " + now);
        }
        checkRate("desired rate sum r_l", desired);
        checkRate("throughput sum r~_l", throughput);
        if (!stable) {
            return new Step(this, Outcome.SKIPPED_UNSTABLE);
        }
        if (desired - throughput > threshold) {
            double b = Math.min(capacity, throughput);
            return new Step(new LinkBandwidthEstimator(capacity, threshold, silenceTime, b, now), Outcome.CONGESTION);
        }
        if (lastCongestion != NO_CONGESTION) {
            // Measurement instants are k·Δ apart and accumulate rounding; a silence of exactly k·Δ must
            // not expire one instant early, hence the tolerance.
            if (now - lastCongestion > silenceTime + 1e-9 * Math.max(1.0, silenceTime)) {
                return new Step(reset(), Outcome.SILENCE_EXPIRED);
            }
            // EPS_RATE of §0.4 on this link: equal throughput and estimate mean the congestion persists.
            if (throughput > available + 1e-9 * Math.max(capacity, 1e-300)) {
                return new Step(reset(), Outcome.THROUGHPUT_RECOVERED);
            }
        }
        return new Step(this, Outcome.UNCHANGED);
    }

    private LinkBandwidthEstimator reset() {
        return new LinkBandwidthEstimator(capacity, threshold, silenceTime, capacity, NO_CONGESTION);
    }

    private static void checkRate(String what, double v) {
        if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException("SkipL Alg. 2: " + what + " must be finite and >= 0, got " + v);
        }
    }

    @Override
    public String toString() {
        return "LinkBandwidthEstimator(B=" + available + " of " + capacity + ", lastCongestion=" + lastCongestion + ")";
    }

    /** The state after a measurement and the case that produced it. Immutable. */
    public static final class Step {
        private final LinkBandwidthEstimator estimator;
        private final Outcome outcome;

        Step(LinkBandwidthEstimator estimator, Outcome outcome) {
            this.estimator = estimator;
            this.outcome = outcome;
        }

        public LinkBandwidthEstimator estimator() {
            return estimator;
        }

        public Outcome outcome() {
            return outcome;
        }

        public boolean changed() {
            return outcome.changed();
        }
    }
}
