package io.courier.scheduler.fai;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.PortGroups;

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
        if (state.network().linkCount() == 0) {
            return reallocateOnPorts(state, coflow, flows, bw, residual);
        }
        return reallocateFlowByFlow(state, flows, bw, residual);
    }

    /** {@link #reallocate} flow by flow, through each flow's resources (extra links included). */
    double reallocateFlowByFlow(ClusterState state, int[] flows, double[] bw, double[] residual) {
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

    /**
     * The same for a network without extra links, where a flow's resources are its two host ports: {@code n_p} is
     * the size of the coflow's group at each port ({@link ClusterState#unfinishedBySrc}, {@code ByDst}), so the
     * shares are read per port rather than per flow — the same minimum over the same ports, the same residuals.
     */
    static double reallocateOnPorts(ClusterState state, int coflow, int[] flows, double[] bw,
            double[] residual) {
        Network net = state.network();
        PortGroups bySrc = state.unfinishedBySrc(coflow);
        PortGroups byDst = state.unfinishedByDst(coflow);
        int hosts = net.hostCount();
        double left = Double.POSITIVE_INFINITY;
        for (int h = 0; h < hosts; h++) {
            int up = bySrc.count(h);
            if (up > 0) {
                left = Math.min(left, residual[net.up(h)] / up);
            }
            int down = byDst.count(h);
            if (down > 0) {
                left = Math.min(left, residual[net.down(h)] / down);
            }
        }
        if (!(left > net.rateEpsilon())) {
            return 0.0;
        }
        for (int f : flows) {
            bw[f] += left;
        }
        for (int h = 0; h < hosts; h++) {
            int up = bySrc.count(h);
            if (up > 0) {
                residual[net.up(h)] = Math.max(0.0, residual[net.up(h)] - left * up);
            }
            int down = byDst.count(h);
            if (down > 0) {
                residual[net.down(h)] = Math.max(0.0, residual[net.down(h)] - left * down);
            }
        }
        return left;
    }
}
