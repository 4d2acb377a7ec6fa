package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;

/**
 * P5 of SCHEDULERS.md §0.5, CoflowSim's {@code updateRatesFairShare}: every flow gets the smallest
 * equal share of its resources, computed once for all flows from the same residual. Not exact max-min:
 * the slack it leaves is recovered by a later {@link GreedyTopUp}.
 */
public final class OneShotFairShare {
    private OneShotFairShare() {
    }

    /** Adds each flow's share to {@code rate} and takes it from {@code residual}; returns how many got a positive one. */
    public static int apply(ClusterState state, int[] flows, double[] residual, double[] rate) {
        double eps = state.network().rateEpsilon();
        int[] n = new int[residual.length];
        boolean[] keep = new boolean[flows.length];
        for (int k = 0; k < flows.length; k++) {
            int f = flows[k];
            if (state.finished(f)) {
                continue;
            }
            boolean ok = true;
            for (int p : state.resourcesOf(f)) {
                if (residual[p] <= eps) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                keep[k] = true;
                for (int p : state.resourcesOf(f)) {
                    n[p]++;
                }
            }
        }
        double[] share = new double[flows.length];
        for (int k = 0; k < flows.length; k++) {
            if (keep[k]) {
                double s = Double.POSITIVE_INFINITY;
                for (int p : state.resourcesOf(flows[k])) {
                    s = Math.min(s, residual[p] / n[p]);
                }
                share[k] = s;
            }
        }
        int given = 0;
        for (int k = 0; k < flows.length; k++) {
            if (share[k] > 0) {
                given++;
                rate[flows[k]] += share[k];
                for (int p : state.resourcesOf(flows[k])) {
                    residual[p] = Math.max(0.0, residual[p] - share[k]);
                }
            }
        }
        return given;
    }
}
