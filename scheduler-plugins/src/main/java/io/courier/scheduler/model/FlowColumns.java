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
    final int[] unfinished;   // indices of the unfinished flows, ascending; the first unfinishedCount entries
    final int unfinishedCount;

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
        unfinished = unfinishedOf(finished, n);
        unfinishedCount = unfinished.length;
    }

    /**
     * Takes ownership of already validated columns ({@code size} NaN = unknown) of {@code n} flows.
     *
     * @param remainingBuffer room for the remaining bytes (at least {@code n} long), or null for a fresh array
     * @param unfinishedBuffer room for the unfinished flows (at least {@code n} long), or null for an
     *                         array of exactly their number
     */
    FlowColumns(int n, boolean[] finished, int[] src, int[] dst, double[] size, double[] sent,
            double[] remainingBuffer, int[] unfinishedBuffer) {
        this.count = n;
        this.finished = finished;
        this.src = src;
        this.dst = dst;
        this.sent = sent;
        this.remaining = remainingBuffer != null ? remainingBuffer : new double[n];
        for (int i = 0; i < n; i++) {
            // Same value as Flow.remaining(); NaN stays NaN (unknown size).
            remaining[i] = Double.isNaN(size[i]) ? Double.NaN : Math.max(0.0, size[i] - sent[i]);
        }
        if (unfinishedBuffer == null) {
            this.unfinished = unfinishedOf(finished, n);
            this.unfinishedCount = unfinished.length;
        } else {
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (!finished[i]) {
                    unfinishedBuffer[k++] = i;
                }
            }
            this.unfinished = unfinishedBuffer;
            this.unfinishedCount = k;
        }
    }

    /**
     * Columns of {@code n} flows whose remaining bytes are already computed ({@code remaining}, owned from here on),
     * with the unfinished flows listed into {@code unfinishedBuffer} (at least {@code n} long): a revised state
     * ({@link ColumnarStateBuilder#revise}) whose finished flags changed.
     */
    FlowColumns(int n, boolean[] finished, int[] src, int[] dst, double[] sent, double[] remaining,
            int[] unfinishedBuffer) {
        this.count = n;
        this.finished = finished;
        this.src = src;
        this.dst = dst;
        this.sent = sent;
        this.remaining = remaining;
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!finished[i]) {
                unfinishedBuffer[k++] = i;
            }
        }
        this.unfinished = unfinishedBuffer;
        this.unfinishedCount = k;
    }

    /**
     * The columns of {@code prev} after some of its flows finished and none unfinished (a revision): its unfinished
     * list, filtered in place, since {@code prev} is not read any more.
     */
    static FlowColumns finishing(FlowColumns prev) {
        return new FlowColumns(prev);
    }

    private FlowColumns(FlowColumns prev) {
        this.count = prev.count;
        this.finished = prev.finished;
        this.src = prev.src;
        this.dst = prev.dst;
        this.sent = prev.sent;
        this.remaining = prev.remaining;
        int[] list = prev.unfinished;
        int k = 0;
        for (int j = 0; j < prev.unfinishedCount; j++) {
            int i = list[j];
            if (!finished[i]) {
                list[k++] = i;
            }
        }
        this.unfinished = list;
        this.unfinishedCount = k;
    }

    private static int[] unfinishedOf(boolean[] finished, int n) {
        int open = 0;
        for (int i = 0; i < n; i++) {
            if (!finished[i]) {
                open++;
            }
        }
        int[] out = new int[open];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!finished[i]) {
                out[k++] = i;
            }
        }
        return out;
    }
}
