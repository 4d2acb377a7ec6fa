package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;

/**
 * P2 of SCHEDULERS.md §0.5: the effective bottleneck Γ of a set of flows — the time the slowest
 * resource needs to carry the flows' remaining bytes at the residual capacities (Varys eq. 1, extended
 * to extra links). Requires sizes.
 */
public final class Bottleneck {
    private Bottleneck() {
    }

    /**
     * Γ over the unfinished flows among {@code flows}, using their remaining bytes. Returns 0 when nothing
     * remains and {@code +∞} when a resource with bytes to carry has no residual capacity.
     */
    public static double gamma(ClusterState state, int[] flows, double[] residual) {
        double[] bytes = new double[flows.length];
        for (int k = 0; k < flows.length; k++) {
            int f = flows[k];
            bytes[k] = state.finished(f) ? 0.0 : state.remaining(f);
        }
        return gamma(state, flows, bytes, residual);
    }

    /**
     * Γ of arbitrary per-flow byte counts ({@code bytes[k]} belongs to {@code flows[k]}). A few flows (one
     * coflow's, the usual call) are summed per resource through a sorted list of (resource, flow) pairs instead
     * of arrays as long as the resource table: with 1,000 hosts those were 24 KB allocated and zeroed per call,
     * about 1.4 MB per Varys decision of 100 coflows, which kept the coordinator's garbage collector busy.
     * Both paths add each resource's bytes in ascending flow order, so they return bit-identical results.
     */
    public static double gamma(ClusterState state, int[] flows, double[] bytes, double[] residual) {
        int entries = 0;
        for (int k = 0; k < flows.length; k++) {
            if (!(bytes[k] <= 0)) { // the same test as below (a NaN counts)
                entries += state.resourcesOf(flows[k]).length;
            }
        }
        if (entries == 0) {
            return 0.0;
        }
        double eps = state.network().rateEpsilon();
        return (long) entries * 8 < residual.length
                ? sparseGamma(state, flows, bytes, residual, entries, eps)
                : denseGamma(state, flows, bytes, residual, eps);
    }

    static double denseGamma(ClusterState state, int[] flows, double[] bytes, double[] residual, double eps) {
        double[] load = new double[residual.length];
        int[] touched = new int[residual.length];
        int nTouched = 0;
        for (int k = 0; k < flows.length; k++) {
            if (bytes[k] <= 0) {
                continue;
            }
            for (int p : state.resourcesOf(flows[k])) {
                if (load[p] == 0.0) {
                    touched[nTouched++] = p;
                }
                load[p] += bytes[k];
            }
        }
        double g = 0.0;
        for (int i = 0; i < nTouched; i++) {
            int p = touched[i];
            if (residual[p] <= eps) {
                return Double.POSITIVE_INFINITY;
            }
            g = Math.max(g, load[p] / residual[p]);
        }
        return g;
    }

    /** (resource << 32 | k) pairs sorted: each resource's flows in ascending k, the dense path's order of addition. */
    static double sparseGamma(ClusterState state, int[] flows, double[] bytes, double[] residual, int entries,
            double eps) {
        long[] pairs = new long[entries];
        int n = 0;
        for (int k = 0; k < flows.length; k++) {
            if (bytes[k] <= 0) {
                continue;
            }
            for (int p : state.resourcesOf(flows[k])) {
                pairs[n++] = ((long) p << 32) | k;
            }
        }
        java.util.Arrays.sort(pairs);
        double g = 0.0;
        int i = 0;
        while (i < n) {
            int p = (int) (pairs[i] >>> 32);
            double load = 0.0;
            while (i < n && (int) (pairs[i] >>> 32) == p) {
                load += bytes[(int) pairs[i]];
                i++;
            }
            if (residual[p] <= eps) {
                return Double.POSITIVE_INFINITY;
            }
            g = Math.max(g, load / residual[p]);
        }
        return g;
    }
}
