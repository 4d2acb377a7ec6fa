package io.courier.simulator.engine;

/**
 * Concurrent network flows per port: the quantity Courier exists to reduce. A network flow is a
 * connection that is sending (rate > 0): a fetch flow without Courier, a unified (or split) flow with
 * it. {@code max} is the largest count any port saw; {@code mean} is the time-weighted mean over the
 * ports and instants where the port had at least one flow. Immutable.
 */
public final class ConcurrencyStats {
    private final int max;
    private final double mean;

    public ConcurrencyStats(int max, double mean) {
        this.max = max;
        this.mean = mean;
    }

    public int max() {
        return max;
    }

    public double mean() {
        return mean;
    }

    @Override
    public String toString() {
        return "max " + max + ", mean " + mean;
    }
}
