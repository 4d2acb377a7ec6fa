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

    /** Γ of arbitrary per-flow byte counts ({@code bytes[k]} belongs to {@code flows[k]}). */
    public static double gamma(ClusterState state, int[] flows, double[] bytes, double[] residual) {
        double eps = state.network().rateEpsilon();
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
}
