package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;

/**
 * P3 of SCHEDULERS.md §0.5, MADD (minimum allocation for desired duration): every unfinished flow of a
 * coflow gets {@code rem / Γ}, so all of them finish together at {@code now + Γ} — the slowest the
 * coflow can go without finishing later. Requires sizes.
 */
public final class Madd {
    private Madd() {
    }

    /**
     * Allocates MADD rates to {@code flows} (one coflow) on {@code residual}, adding them to {@code rate}
     * and subtracting them from {@code residual}. Returns Γ; when Γ is infinite nothing is allocated.
     */
    public static double apply(ClusterState state, int[] flows, double[] residual, double[] rate) {
        double g = Bottleneck.gamma(state, flows, residual);
        if (Double.isInfinite(g) || g <= 0) {
            return g;
        }
        double[] add = new double[flows.length];
        for (int k = 0; k < flows.length; k++) {
            int f = flows[k];
            if (!state.finished(f)) {
                add[k] = state.remaining(f) / g;
            }
        }
        // All rates first, then the residual (the spec's "all flows of C first, then update R").
        for (int k = 0; k < flows.length; k++) {
            if (add[k] > 0) {
                rate[flows[k]] += add[k];
                for (int p : state.resourcesOf(flows[k])) {
                    residual[p] = Math.max(0.0, residual[p] - add[k]);
                }
            }
        }
        return g;
    }
}
