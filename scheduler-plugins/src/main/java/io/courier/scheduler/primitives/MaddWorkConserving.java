package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;

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
            GreedyTopUp.apply(state, FlowOrder.byDstSrcId(state, state.unfinishedFlowsOf(c)), residual, rate);
        }
        return rate;
    }
}
