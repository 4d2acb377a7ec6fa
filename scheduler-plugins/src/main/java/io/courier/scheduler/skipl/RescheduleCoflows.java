package io.courier.scheduler.skipl;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.primitives.Bottleneck;
import io.courier.scheduler.primitives.FlowOrder;
import io.courier.scheduler.primitives.GreedyTopUp;
import io.courier.scheduler.primitives.Madd;
import java.util.Arrays;
import java.util.Comparator;

/**
 * SkipL's allocation (SCHEDULERS.md §8): Alg. 3 EstimateCCT and Alg. 1 RescheduleCoflows, as pure
 * functions of a state and the available bandwidth {@code B − A} of every resource (port capacities,
 * and the estimates {@code B(l)} for extra links). Requires sizes.
 *
 * <p>EstimateCCT is the aggregated, MADD-style Γ ([resolved]): the paper's per-flow expression ignores
 * several flows of one coflow sharing a port.
 */
public final class RescheduleCoflows {
    private RescheduleCoflows() {
    }

    /**
     * Alg. 3: {@code τ_C = max_p D_C(p) / (B(p) − A(p))} over the coflow's unfinished flows; {@code +∞}
     * when a needed resource has no room left, 0 when nothing remains.
     *
     * @param available {@code B − A} indexed by resource (not modified)
     */
    public static double estimateCct(ClusterState state, int coflow, double[] available) {
        return Bottleneck.gamma(state, state.unfinishedFlowsOf(coflow), available);
    }

    /**
     * Alg. 1 AllocateBandwidth: every unfinished flow of {@code coflow} gets {@code rem / τ} (nothing when
     * {@code τ = ∞}); the rates are added to {@code rate} and taken from {@code available}. Returns τ.
     */
    public static double allocate(ClusterState state, int coflow, double[] available, double[] rate) {
        return Madd.apply(state, state.unfinishedFlowsOf(coflow), available, rate);
    }

    /**
     * Alg. 1 lines 2–3: coflow indices sorted by their estimated CCT on {@code available} (all with
     * {@code A = 0}), shortest first; ties by (arrival, id), i.e. by coflow index.
     */
    public static int[] order(ClusterState state, double[] available) {
        int n = state.coflowCount();
        final double[] tau = new double[n];
        Integer[] idx = new Integer[n];
        for (int c = 0; c < n; c++) {
            tau[c] = estimateCct(state, c, available);
            idx[c] = c;
        }
        Arrays.sort(idx, Comparator.<Integer>comparingDouble(c -> tau[c]).thenComparingInt(c -> c));
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            out[k] = idx[k];
        }
        return out;
    }

    /**
     * The whole of Alg. 1: SPTF order on estimated CCT, AllocateBandwidth per coflow in that order, then
     * conservation — coflows by (arrival, id), flows by (dst, src, id), each flow tops up with what is
     * left on its tightest resource.
     *
     * @param available {@code B} indexed by resource; not modified
     * @return rates indexed like {@code state.flows()}
     */
    public static double[] apply(ClusterState state, double[] available) {
        double[] residual = available.clone();
        double[] rate = new double[state.flowCount()];
        for (int c : order(state, available)) {
            allocate(state, c, residual, rate);
        }
        GreedyTopUp.apply(state, conservationOrder(state), residual, rate);
        return rate;
    }

    /** Unfinished flows, coflows in (arrival, id) order and, inside a coflow, by (dst, src, id). */
    static int[] conservationOrder(ClusterState state) {
        int[] out = new int[state.flowCount()];
        int n = 0;
        for (int c = 0; c < state.coflowCount(); c++) {
            for (int f : FlowOrder.byDstSrcId(state, state.unfinishedFlowsOf(c))) {
                out[n++] = f;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
