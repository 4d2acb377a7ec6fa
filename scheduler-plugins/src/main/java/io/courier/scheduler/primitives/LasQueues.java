package io.courier.scheduler.primitives;

/**
 * P7 of SCHEDULERS.md §0.5: the least-attained-service queue of a coflow that has sent {@code s}
 * bytes, with {@code K} queues whose thresholds are {@code Q1·E^j}. Demotion happens at {@code s >=}
 * threshold (CoflowSim uses {@code >}; the spec's choice reproduces the Fai Fig. 1 example).
 */
public final class LasQueues {
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

    /** {@code q(s) = |{ j in 0..K-2 : Q1·E^j <= s }|}. */
    public int queueOf(double sent) {
        int q = 0;
        double threshold = firstThreshold;
        while (q < queues - 1 && sent >= threshold) {
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
}
