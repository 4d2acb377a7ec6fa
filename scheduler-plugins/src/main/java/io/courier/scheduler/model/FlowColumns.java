package io.courier.scheduler.model;

import java.util.List;

/**
 * The hot per-flow attributes of a {@link ClusterState} as primitive columns, indexed like its flows:
 * the primitives read them at every decision, and walking primitive arrays is several times cheaper than
 * reaching each {@link Flow} object. Immutable once built (the arrays are never handed out). The arrays
 * may be longer than the state (buffers lent by a reusable {@link ColumnarStateBuilder}): only the first
 * {@code count} entries are flows, so nothing here may use an array's length.
 */
final class FlowColumns {
    final int count;
    final boolean[] finished;
    final int[] src;
    final int[] dst;
    final double[] sent;
    final double[] remaining; // NaN when the size is unknown

    /** Reads the columns from flow objects. */
    FlowColumns(List<Flow> flows) {
        int n = flows.size();
        count = n;
        finished = new boolean[n];
        src = new int[n];
        dst = new int[n];
        sent = new double[n];
        remaining = new double[n];
        for (int i = 0; i < n; i++) {
            Flow f = flows.get(i);
            finished[i] = f.finished();
            src[i] = f.src();
            dst[i] = f.dst();
            sent[i] = f.sent();
            remaining[i] = f.hasSize() ? f.remaining() : Double.NaN;
        }
    }

    private FlowColumns(int n, boolean[] finished, int[] src, int[] dst, double[] sent, double[] remaining) {
        this.count = n;
        this.finished = finished;
        this.src = src;
        this.dst = dst;
        this.sent = sent;
        this.remaining = remaining;
    }

    /** Remaining bytes of a flow of {@code size} (NaN = unknown: stays NaN) that sent {@code sent}: Flow.remaining()'s value. */
    static double remaining(double size, double sent) {
        return Double.isNaN(size) ? Double.NaN : Math.max(0.0, size - sent);
    }

    /** Columns over arrays whose first {@code n} entries, remaining bytes included, are already right. */
    static FlowColumns sharing(int n, boolean[] finished, int[] src, int[] dst, double[] sent, double[] remaining) {
        return new FlowColumns(n, finished, src, dst, sent, remaining);
    }

    /**
     * Takes ownership of already validated columns ({@code size} NaN = unknown) of {@code n} flows.
     *
     * @param remainingBuffer room for the remaining bytes (at least {@code n} long), or null for a fresh array
     */
    FlowColumns(int n, boolean[] finished, int[] src, int[] dst, double[] size, double[] sent,
            double[] remainingBuffer) {
        this.count = n;
        this.finished = finished;
        this.src = src;
        this.dst = dst;
        this.sent = sent;
        this.remaining = remainingBuffer != null ? remainingBuffer : new double[n];
        for (int i = 0; i < n; i++) {
            remaining[i] = remaining(size[i], sent[i]);
        }
    }
}
