package io.courier.simulator.report;

/** CCT statistics of the coflows of one {@link CoflowBin} in one run; NaN averages when the bin is empty. Immutable. */
public final class BinStats {
    private final CoflowBin bin;
    private final int coflows;
    private final double avgCct;
    private final double p99Cct;

    public BinStats(CoflowBin bin, int coflows, double avgCct, double p99Cct) {
        this.bin = bin;
        this.coflows = coflows;
        this.avgCct = avgCct;
        this.p99Cct = p99Cct;
    }

    public CoflowBin bin() {
        return bin;
    }

    public int coflows() {
        return coflows;
    }

    /** Mean CCT (s) of the bin's coflows. */
    public double avgCct() {
        return avgCct;
    }

    /** Nearest-rank 99th percentile CCT (s), see {@link Percentiles}. */
    public double p99Cct() {
        return p99Cct;
    }

    @Override
    public String toString() {
        return bin + ": " + coflows + " coflows, avg " + avgCct + " s, p99 " + p99Cct + " s";
    }
}
