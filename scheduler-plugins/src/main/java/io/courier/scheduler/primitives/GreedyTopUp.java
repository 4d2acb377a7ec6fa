package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;

/**
 * P4 of SCHEDULERS.md §0.5: in list order, every flow takes all that is left on its tightest resource.
 * It is how order-preserving schedulers stay work-conserving.
 */
public final class GreedyTopUp {
    private GreedyTopUp() {
    }

    /** Tops up {@code flows} in order; finished flows are skipped. */
    public static void apply(ClusterState state, int[] flows, double[] residual, double[] rate) {
        double eps = state.network().rateEpsilon();
        for (int f : flows) {
            if (state.finished(f)) {
                continue;
            }
            int[] res = state.resourcesOf(f);
            double a = Double.POSITIVE_INFINITY;
            for (int p : res) {
                a = Math.min(a, residual[p]);
            }
            if (a <= eps) {
                continue;
            }
            rate[f] += a;
            for (int p : res) {
                residual[p] = Math.max(0.0, residual[p] - a);
            }
        }
    }
}
