package io.courier.simulator.trace;

/**
 * One reducer entry of a trace coflow: the rack it runs in and the shuffle megabytes it receives
 * (one MB of the coflow-benchmark format is 1 048 576 bytes, PAPER_RESULTS.md §0). Immutable.
 */
public final class TraceReducer {
    /** Bytes in one trace megabyte. */
    public static final double BYTES_PER_MB = 1048576.0;

    private final int rack;
    private final double megabytes;

    public TraceReducer(int rack, double megabytes) {
        if (rack < 0) {
            throw new IllegalArgumentException("reducer rack must be >= 0, got " + rack);
        }
        if (!Double.isFinite(megabytes) || megabytes < 0) {
            throw new IllegalArgumentException("reducer MB must be a finite number >= 0, got " + megabytes);
        }
        this.rack = rack;
        this.megabytes = megabytes;
    }

    public int rack() {
        return rack;
    }

    /** Shuffle volume received by this reducer, in trace megabytes (MiB). */
    public double megabytes() {
        return megabytes;
    }

    public double bytes() {
        return megabytes * BYTES_PER_MB;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TraceReducer)) {
            return false;
        }
        TraceReducer r = (TraceReducer) o;
        return rack == r.rack && Double.compare(megabytes, r.megabytes) == 0;
    }

    @Override
    public int hashCode() {
        return rack * 31 + Double.hashCode(megabytes);
    }

    @Override
    public String toString() {
        return rack + ":" + megabytes;
    }
}
