package io.courier.scheduler.fai;

import io.courier.scheduler.model.ClusterState;

/**
 * Step 3 of Fai (SCHEDULERS.md §6, seed 001 Alg. 3): hands the bandwidth freed by MBAB to coflows in
 * strict priority order, the same amount {@code left} to every unfinished flow of a coflow, so that the
 * coflow's flows keep progressing together.
 *
 * <p>Two [resolved] departures from the paper's pseudo-code, both from the spec: {@code left} is
 * recomputed for each coflow (computed once, the first coflow without slack would block all later ones,
 * and Fig. 1(d) would not be reproduced), and a resource carrying {@code n_p} flows of the coflow offers
 * each of them {@code L_bw(p)/n_p} (without the division two flows of one coflow on the same port could
 * together exceed its residual).
 *
 * <p>One instance serves one decision: it keeps a scratch array of per-resource counts, so it is not
 * shared between threads.
 */
final class RemainingBandwidth {
    private final int[] flowsOn;

    RemainingBandwidth(int resourceCount) {
        this.flowsOn = new int[resourceCount];
    }

    /**
     * Gives one coflow its share of the residual.
     *
     * @param bw per-flow bandwidth indexed like {@code state.flows()}; modified
     * @param residual per-resource remaining bandwidth; modified
     * @return the bandwidth added to each unfinished flow of the coflow (0 when none)
     */
    double reallocate(ClusterState state, int coflow, double[] bw, double[] residual) {
        int[] flows = state.unfinishedFlowsOf(coflow);
        if (flows.length == 0) {
            return 0.0;
        }
        for (int f : flows) {
            for (int p : state.resourcesOf(f)) {
                flowsOn[p]++;
            }
        }
        double left = Double.POSITIVE_INFINITY;
        for (int f : flows) {
            for (int p : state.resourcesOf(f)) {
                left = Math.min(left, residual[p] / flowsOn[p]);
            }
        }
        boolean grant = left > state.network().rateEpsilon();
        for (int f : flows) {
            if (grant) {
                bw[f] += left;
            }
            for (int p : state.resourcesOf(f)) {
                if (flowsOn[p] > 0) {
                    if (grant) {
                        residual[p] = Math.max(0.0, residual[p] - left * flowsOn[p]);
                    }
                    flowsOn[p] = 0; // visit each resource once; leaves the scratch array clean
                }
            }
        }
        return grant ? left : 0.0;
    }
}
