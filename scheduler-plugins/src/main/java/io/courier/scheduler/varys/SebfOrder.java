package io.courier.scheduler.varys;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.primitives.Bottleneck;
import java.util.Arrays;

/**
 * Smallest-Effective-Bottleneck-First (SCHEDULERS.md §3, line 1): coflows sorted by their effective
 * bottleneck Γ at full capacity, ties by (arrival, id). The Varys paper's key uses remaining bytes and
 * is recomputed at every trigger; CoflowSim's uses total sizes, computed once at admission.
 */
final class SebfOrder {
    private SebfOrder() {
    }

    /** Coflow indices in SEBF order. */
    static int[] order(ClusterState state, boolean staticKey) {
        double[] cap = state.residualCapacities(false);
        double[] key = new double[state.coflowCount()];
        for (int c = 0; c < key.length; c++) {
            key[c] = staticKey ? totalSizeGamma(state, c, cap) : Bottleneck.gamma(state, state.unfinishedFlowsOf(c), cap);
        }
        Integer[] boxed = new Integer[key.length];
        for (int c = 0; c < key.length; c++) {
            boxed[c] = c;
        }
        // Arrays.sort on objects is stable, so equal keys keep the state's (arrival, id) order.
        Arrays.sort(boxed, (a, b) -> Double.compare(key[a], key[b]));
        int[] out = new int[key.length];
        for (int c = 0; c < key.length; c++) {
            out[c] = boxed[c];
        }
        return out;
    }

    private static double totalSizeGamma(ClusterState state, int c, double[] cap) {
        int[] flows = state.flowsOf(c);
        double[] bytes = new double[flows.length];
        for (int k = 0; k < flows.length; k++) {
            Flow f = state.flow(flows[k]);
            bytes[k] = f.size();
        }
        return Bottleneck.gamma(state, flows, bytes, cap);
    }
}
