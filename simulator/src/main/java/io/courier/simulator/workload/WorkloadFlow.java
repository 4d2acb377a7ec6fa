package io.courier.simulator.workload;

/**
 * One flow of a workload coflow: {@code bytes} from host {@code src} to host {@code dst}. {@code reducer}
 * and {@code mapper} identify the fetch inside its coflow: the Hadoop fetch model lets each reducer run at
 * most {@code parallelcopies} fetches at once and starts waiting ones in ascending mapper order. Immutable.
 */
public final class WorkloadFlow {
    private final int src;
    private final int dst;
    private final double bytes;
    private final int reducer;
    private final int mapper;

    public WorkloadFlow(int src, int dst, double bytes, int reducer, int mapper) {
        if (src < 0 || dst < 0) {
            throw new IllegalArgumentException("host indices must be >= 0, got " + src + "->" + dst);
        }
        if (!Double.isFinite(bytes) || bytes <= 0) {
            throw new IllegalArgumentException("flow " + src + "->" + dst + ": bytes must be finite and > 0, got "
                    + bytes);
        }
        if (reducer < 0 || mapper < 0) {
            throw new IllegalArgumentException("flow " + src + "->" + dst + ": reducer and mapper must be >= 0, got "
                    + reducer + ", " + mapper);
        }
        this.src = src;
        this.dst = dst;
        this.bytes = bytes;
        this.reducer = reducer;
        this.mapper = mapper;
    }

    public int src() {
        return src;
    }

    public int dst() {
        return dst;
    }

    public double bytes() {
        return bytes;
    }

    /** The reducer (task) this flow feeds, numbered within the coflow. */
    public int reducer() {
        return reducer;
    }

    /** The mapper (task) this flow comes from, numbered within the coflow. */
    public int mapper() {
        return mapper;
    }

    @Override
    public String toString() {
        return src + "->" + dst + ":" + bytes + "(r" + reducer + ",m" + mapper + ")";
    }
}
