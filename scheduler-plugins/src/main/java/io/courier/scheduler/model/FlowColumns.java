package io.courier.scheduler.model;

import java.util.List;

/**
 * The hot per-flow attributes of a {@link ClusterState} as primitive columns, indexed like its flows:
 * the primitives read them at every decision, and walking primitive arrays is several times cheaper than
 * reaching each {@link Flow} object. Immutable once built (the arrays are never handed out).
 */
final class FlowColumns {
    final boolean[] finished;
    final int[] src;
    final int[] dst;
    final double[] sent;
    final double[] remaining; // NaN when the size is unknown
    final int[] unfinished;   // indices of the unfinished flows, ascending

    /** Reads the columns from flow objects. */
    FlowColumns(List<Flow> flows) {
        int n = flows.size();
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
        unfinished = unfinishedOf(finished);
    }

    /** Takes ownership of already validated columns ({@code size} NaN = unknown). */
    FlowColumns(boolean[] finished, int[] src, int[] dst, double[] size, double[] sent) {
        this.finished = finished;
        this.src = src;
        this.dst = dst;
        this.sent = sent;
        this.remaining = new double[finished.length];
        for (int i = 0; i < remaining.length; i++) {
            // Same value as Flow.remaining(); NaN stays NaN (unknown size).
            remaining[i] = Double.isNaN(size[i]) ? Double.NaN : Math.max(0.0, size[i] - sent[i]);
        }
        this.unfinished = unfinishedOf(finished);
    }

    private static int[] unfinishedOf(boolean[] finished) {
        int open = 0;
        for (boolean f : finished) {
            if (!f) {
                open++;
            }
        }
        int[] out = new int[open];
        int k = 0;
        for (int i = 0; i < finished.length; i++) {
            if (!finished[i]) {
                out[k++] = i;
            }
        }
        return out;
    }
}
