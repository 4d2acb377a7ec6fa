package io.courier.scheduler.stream;

/**
 * Stream's priority formula, eq. 5 of the paper (SCHEDULERS.md §7); eq. 2 is the case {@code W = 1, S = 0}.
 * A pure function of one receiver's {@link SubCoflowObservation} and the sub-coflow's current level, so a
 * receiver (or the proxy in front of it) evaluates it with no coordinator. Immutable.
 *
 * <pre>
 * X     = β·S + x                                   (MB)
 * H     = τ·(n^fin/n + n/x)                         (n/x is 0 when x = 0)
 * W     = α·ln(m+1) if m &gt; 1, else 1
 * ratio = min(1, (τ + α·H) / (W·X))                 (1 when X = 0)
 * P     = K − ceil(K·ratio)                         0 = highest priority
 * </pre>
 *
 * Sizes enter in MB (2^20 bytes) [proposed]: in bytes the term {@code n/x} would vanish.
 */
public final class StreamPriority {
    /** Bytes per MB inside the formula. */
    public static final double BYTES_PER_MB = 1048576.0;
    /** Growth of {@code τ_k} per level in {@link TauMode#CURRENT_LEVEL}: Aalo's exponential spacing. */
    public static final double THRESHOLD_GROWTH = 10.0;
    /**
     * Slack on {@code K·ratio} before the ceiling: exact boundaries such as {@code 4·0.75 = 3} must not be pushed
     * into the next class by rounding noise in the ratio.
     */
    private static final double CEIL_SLACK = 1e-9;

    private final int queues;
    private final double tauMb;
    private final double alpha;
    private final double beta;
    private final TauMode tauMode;

    /**
     * @param queues  K, the number of priority classes ({@code >= 1})
     * @param tauMb   τ, the highest queue's demotion threshold in MB ({@code > 0})
     * @param alpha   α, weight of the coflow-condition term H and of the sub-coflow weight W ({@code > 0})
     * @param beta    β, weight of the relayed bytes S ({@code >= 0}; 0 switches Information-Relay off)
     * @param tauMode which τ_k to use
     */
    public StreamPriority(int queues, double tauMb, double alpha, double beta, TauMode tauMode) {
        if (queues < 1) {
            throw new IllegalArgumentException("Stream: parameter 'queues' (K) must be >= 1, got " + queues);
        }
        if (!(tauMb > 0) || Double.isInfinite(tauMb)) {
            throw new IllegalArgumentException("Stream: parameter 'tau' must be a finite number of MB > 0, got "
                    + tauMb);
        }
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("Stream: parameter 'alpha' must be finite and > 0, got " + alpha);
        }
        if (!(beta >= 0) || Double.isInfinite(beta)) {
            throw new IllegalArgumentException("Stream: parameter 'beta' must be finite and >= 0, got " + beta);
        }
        if (tauMode == null) {
            throw new IllegalArgumentException("Stream: parameter 'tauMode' must not be null");
        }
        this.queues = queues;
        this.tauMb = tauMb;
        this.alpha = alpha;
        this.beta = beta;
        this.tauMode = tauMode;
    }

    /** The defaults of SCHEDULERS.md §7: K = 4, τ = 10 MB, α = β = 1, constant τ. */
    public static StreamPriority defaults() {
        return new StreamPriority(4, 10.0, 1.0, 1.0, TauMode.CONSTANT);
    }

    public int queues() {
        return queues;
    }

    public double tauMb() {
        return tauMb;
    }

    public double alpha() {
        return alpha;
    }

    public double beta() {
        return beta;
    }

    public TauMode tauMode() {
        return tauMode;
    }

    /** The formula level {@code φ ∈ 0..K−1} of a sub-coflow currently at {@code currentLevel}. */
    public int level(SubCoflowObservation o, int currentLevel) {
        return evaluate(o, currentLevel).level();
    }

    /** The formula with its intermediate values, for tests and reports. */
    public Evaluation evaluate(SubCoflowObservation o, int currentLevel) {
        if (currentLevel < 0 || currentLevel >= queues) {
            throw new IllegalArgumentException("Stream: current level of " + o.coflow() + " must be in [0, "
                    + (queues - 1) + "], got " + currentLevel);
        }
        double tau = tauMode == TauMode.CONSTANT ? tauMb : tauMb * Math.pow(THRESHOLD_GROWTH, currentLevel);
        double x = o.bytesReceived() / BYTES_PER_MB;
        double s = o.relayedBytes() / BYTES_PER_MB;
        double n = o.flowsSeen();
        double bigX = beta * s + x;
        double h = tau * (o.flowsFinished() / n + (x > 0 ? n / x : 0.0));
        double w = o.subCoflows() > 1 ? alpha * Math.log(o.subCoflows() + 1.0) : 1.0;
        double raw = bigX > 0 ? (tau + alpha * h) / (w * bigX) : Double.POSITIVE_INFINITY;
        double ratio = Math.min(1.0, raw);
        int level = queues - (int) Math.ceil(queues * ratio - CEIL_SLACK);
        // Only a ratio below CEIL_SLACK/K (petabytes at the default τ) reaches K; it belongs in the last class.
        level = Math.max(0, Math.min(queues - 1, level));
        return new Evaluation(tau, bigX, h, w, raw, ratio, level);
    }

    /**
     * A lower bound on how long a sub-coflow can keep a formula level of at most {@code previousLevel}
     * (seconds from now; 0 when it may already be above, +∞ when it never will) while its bytes received
     * grow as {@code x(t) = x0 + xRate·t} and the relayed bytes stay below {@code s(t) = s0 + sRate·t} (bytes,
     * bytes/s), with {@code n}, {@code n^fin} and {@code m} fixed. The ratio falls as {@code x} and {@code S}
     * grow, so the level rises past {@code previousLevel} exactly when
     * {@code ratio <= (K − previousLevel − 1 + CEIL_SLACK)/K}; for {@code x > 0} that is the quadratic
     * inequality {@code T·W·(β·S + x)·x − A·x − B >= 0} with {@code A = τ(1 + α·n^fin/n)}, {@code B = α·τ·n}.
     * An upper bound on {@code S} gives a lower bound on the time.
     */
    public double timeAtOrBelowLevel(int previousLevel, int currentLevel, double x0, double xRate, double s0,
            double sRate, int n, int finished, int m) {
        if (previousLevel >= queues - 1) {
            return Double.POSITIVE_INFINITY; // the last class: no formula level is above it
        }
        double tau = tauMode == TauMode.CONSTANT ? tauMb : tauMb * Math.pow(THRESHOLD_GROWTH, currentLevel);
        double target = (queues - previousLevel - 1 + CEIL_SLACK) / queues;
        double w = m > 1 ? alpha * Math.log(m + 1.0) : 1.0;
        double x = x0 / BYTES_PER_MB;
        double a = xRate / BYTES_PER_MB;
        double s = s0 / BYTES_PER_MB;
        double b = sRate / BYTES_PER_MB;
        double bigA = tau * (1.0 + alpha * finished / (double) n);
        double bigB = alpha * tau * n;
        if (x <= 0) {
            // x = 0 now: n/x counts as 0, so the ratio is A/(W·β·S) until the first byte arrives, then ∞-large.
            double bigX = beta * s;
            if (bigX > 0 && bigA / (w * bigX) <= target) {
                return 0.0;
            }
            if (a <= 0) {
                double slope = beta * b; // the ratio can fall only through S
                if (slope <= 0) {
                    return Double.POSITIVE_INFINITY;
                }
                return Math.max(0.0, (bigA / (target * w) - bigX) / slope);
            }
        }
        double p0 = beta * s + x;
        double p1 = beta * b + a;
        double tw = target * w;
        double q2 = tw * p1 * a;
        double q1 = tw * (p0 * a + p1 * x) - bigA * a;
        double q0 = tw * p0 * x - bigA * x - bigB;
        if (x > 0 && q0 >= 0) {
            return 0.0;
        }
        if (q2 <= 0) {
            return q1 > 0 ? Math.max(0.0, -q0 / q1) : Double.POSITIVE_INFINITY;
        }
        double disc = q1 * q1 - 4 * q2 * q0;
        if (disc < 0) {
            return 0.0; // cannot happen with q0 < 0 < q2; prove nothing
        }
        return Math.max(0.0, (-q1 + Math.sqrt(disc)) / (2 * q2));
    }

    @Override
    public String toString() {
        return "StreamPriority(K=" + queues + ", tau=" + tauMb + " MB, alpha=" + alpha + ", beta=" + beta + ", "
                + tauMode.parameterValue() + ")";
    }

    /** One evaluation of the formula: the threshold used, X, H, W, the ratio before and after the cap, P. */
    public static final class Evaluation {
        private final double tauMb;
        private final double weightedBytesMb;
        private final double condition;
        private final double weight;
        private final double uncappedRatio;
        private final double ratio;
        private final int level;

        Evaluation(double tauMb, double weightedBytesMb, double condition, double weight, double uncappedRatio,
                double ratio, int level) {
            this.tauMb = tauMb;
            this.weightedBytesMb = weightedBytesMb;
            this.condition = condition;
            this.weight = weight;
            this.uncappedRatio = uncappedRatio;
            this.ratio = ratio;
            this.level = level;
        }

        /** The {@code τ_k} used, MB. */
        public double tauMb() {
            return tauMb;
        }

        /** {@code X = β·S + x}, MB. */
        public double weightedBytesMb() {
            return weightedBytesMb;
        }

        /** {@code H_c}. */
        public double condition() {
            return condition;
        }

        /** {@code W}. */
        public double weight() {
            return weight;
        }

        /** {@code (τ + α·H)/(W·X)} before the cap; +∞ when X = 0. */
        public double uncappedRatio() {
            return uncappedRatio;
        }

        /** {@code min(1, …)}. */
        public double ratio() {
            return ratio;
        }

        /** {@code P ∈ 0..K−1}. */
        public int level() {
            return level;
        }

        @Override
        public String toString() {
            return "Evaluation(tau=" + tauMb + ", X=" + weightedBytesMb + ", H=" + condition + ", W=" + weight
                    + ", ratio=" + ratio + " (uncapped " + uncappedRatio + "), P=" + level + ")";
        }
    }
}
