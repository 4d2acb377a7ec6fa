package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import java.util.Arrays;

/** Flow orders that several schedulers' work-conservation steps share (SCHEDULERS.md §0.4). */
public final class FlowOrder {
    private FlowOrder() {
    }

    /**
     * Flow indices sorted by (dst, src, flow id): CoflowSim iterates reducers, then mappers. {@code flows}
     * must be in ascending flow-id order, as {@link ClusterState#unfinishedFlowsOf} returns them.
     */
    public static int[] byDstSrcId(ClusterState state, int[] flows) {
        // flows arrive in ascending id order, so sorting (dst, src, position) keeps ids ordered within a
        // pair; packing the key into a long keeps the sort primitive at tens of thousands of flows.
        long hosts = state.network().hostCount();
        long[] key = new long[flows.length];
        for (int k = 0; k < flows.length; k++) {
            long pair = state.dst(flows[k]) * hosts + state.src(flows[k]);
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
