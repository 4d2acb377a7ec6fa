package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import java.util.Arrays;

/**
 * {@code MADD_WC} of SCHEDULERS.md §3 (lines 2–13), CoflowSim's {@code updateRatesDynamicAlpha}: coflows
 * in the given order each get their MADD rates on the residual capacity; coflows that a full port
 * blocks are skipped; then two work-conservation steps give the slack away — a one-shot fair share
 * among the skipped coflows' flows, and a greedy top-up of every coflow in arrival order with flows in
 * (dst, src, id) order. FIFO and Varys differ only in the order they pass. Requires sizes.
 */
public final class MaddWorkConserving {
    private MaddWorkConserving() {
    }

    /**
     * Rates indexed like {@code state.flows()}.
     *
     * @param order coflow indices, most important first; every active coflow should appear once
     */
    public static double[] rates(ClusterState state, int[] order) {
        double[] rate = new double[state.flowCount()];
        double[] residual = state.residualCapacities(false);
        int[] skipped = new int[order.length];
        int nSkipped = 0;
        for (int c : order) {
            double g = Madd.apply(state, state.unfinishedFlowsOf(c), residual, rate);
            if (Double.isInfinite(g)) {
                skipped[nSkipped++] = c;
            }
        }
        int n = 0;
        for (int k = 0; k < nSkipped; k++) {
            n += state.unfinishedFlowsOf(skipped[k]).length;
        }
        int[] skippedFlows = new int[n];
        n = 0;
        for (int k = 0; k < nSkipped; k++) {
            for (int f : state.unfinishedFlowsOf(skipped[k])) {
                skippedFlows[n++] = f;
            }
        }
        OneShotFairShare.apply(state, skippedFlows, residual, rate);
        // Without deadlines CoflowSim's "sort by EDF and refill" is arrival order, i.e. state order.
        for (int c = 0; c < state.coflowCount(); c++) {
            GreedyTopUp.apply(state, byDstSrcId(state, state.unfinishedFlowsOf(c)), residual, rate);
        }
        return rate;
    }

    /** Flow indices sorted by (dst, src, flow id): CoflowSim iterates reducers, then mappers. */
    static int[] byDstSrcId(ClusterState state, int[] flows) {
        // flows arrive in ascending id order, so sorting (dst, src, position) keeps ids ordered within a
        // pair; packing the key into a long keeps the sort primitive at tens of thousands of flows.
        long hosts = state.network().hostCount();
        long[] key = new long[flows.length];
        for (int k = 0; k < flows.length; k++) {
            long pair = state.flow(flows[k]).dst() * hosts + state.flow(flows[k]).src();
            key[k] = (pair << 31) | k;
        }
        Arrays.sort(key);
        int[] out = new int[flows.length];
        for (int k = 0; k < flows.length; k++) {
            out[k] = flows[(int) (key[k] & 0x7fffffffL)];
        }
        return out;
    }
}
