package io.courier.scheduler.iaoa;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.primitives.MaxMin;

/**
 * Alg. 4 of seed 004 (SCHEDULERS.md §9), the rate allocation of IAOA and Simple-offline: coflows in
 * priority order each get one common rate for all their unfinished flows, as much as their tightest
 * resource allows; whatever is left is then shared max-min among all unfinished flows.
 *
 * <p>[resolved] The common rate is {@code min_p residual(p) / n_p}, where {@code n_p} counts the
 * coflow's unfinished flows on {@code p}. The paper's {@code r = min{I_p, O_q}} overbooks a port that
 * carries several flows of the coflow. [resolved] "Allocate remaining bandwidth equally" is P1 MaxMin
 * on the leftover capacities. Resources are all of {@code Res(f)}, extra links included.
 */
public final class GreedyCoflowAllocation {
    private GreedyCoflowAllocation() {
    }

    /** Rates indexed like {@code state.flows()}: the greedy step in {@code order}, then the leftover max-min. */
    public static double[] allocate(ClusterState state, int[] order) {
        double[] residual = state.residualCapacities(false);
        double[] rate = prioritized(state, order, residual);
        MaxMin.fill(state, state.unfinishedFlows(), residual, null, rate);
        return rate;
    }

    /**
     * The greedy step alone (Alg. 4 lines 3-8): rates indexed like {@code state.flows()}, subtracted from
     * {@code residual}. {@code order} holds coflow indices, each at most once; coflows it omits get nothing here.
     */
    public static double[] prioritized(ClusterState state, int[] order, double[] residual) {
        double eps = state.network().rateEpsilon();
        double[] rate = new double[state.flowCount()];
        int[] onResource = new int[residual.length];
        boolean[] done = new boolean[state.coflowCount()];
        for (int c : order) {
            if (c < 0 || c >= done.length) {
                throw new IllegalArgumentException("coflow index " + c + " in the allocation order is out of range [0, "
                        + done.length + ")");
            }
            if (done[c]) {
                throw new IllegalArgumentException(state.coflow(c).id() + " appears twice in the allocation order");
            }
            done[c] = true;
            int[] flows = state.unfinishedFlowsOf(c);
            if (flows.length == 0 || touchesSpentResource(state, flows, residual, eps)) {
                // r would be at most residual/n_p <= EPS on that resource, so 0: nothing to give, nothing to take.
                continue;
            }
            for (int f : flows) {
                for (int p : state.resourcesOf(f)) {
                    onResource[p]++;
                }
            }
            double r = Double.POSITIVE_INFINITY;
            for (int f : flows) {
                for (int p : state.resourcesOf(f)) {
                    r = Math.min(r, residual[p] / onResource[p]);
                }
            }
            if (r <= eps) {
                r = 0.0;
            }
            for (int f : flows) {
                rate[f] = r;
                for (int p : state.resourcesOf(f)) {
                    // Reset the counter on the way so the array is clean for the next coflow.
                    if (onResource[p] > 0) {
                        residual[p] = Math.max(0.0, residual[p] - r * onResource[p]);
                        onResource[p] = 0;
                    }
                }
            }
        }
        return rate;
    }

    /**
     * Whether a flow of {@code flows} uses a resource with at most {@code eps} left. Once the first coflows of
     * the order have filled their ports, most later ones touch such a resource; this finds out with a walk that
     * stops at the first, where the full rule counts the coflow's flows on every resource first.
     */
    private static boolean touchesSpentResource(ClusterState state, int[] flows, double[] residual, double eps) {
        for (int f : flows) {
            for (int p : state.resourcesOf(f)) {
                if (residual[p] <= eps) {
                    return true;
                }
            }
        }
        return false;
    }
}
