package io.courier.scheduler.model;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Flow id → position in a state's flow list. Drivers usually list flows in ascending id order; then a
 * binary search needs no map at all, which matters when a state of a hundred thousand flows is built at
 * every decision. Otherwise a hash map is built (and duplicate ids are found). Immutable; shared by a
 * state and its size-hiding views, which is how {@link ClusterState#hasSameFlowsAs} recognises them.
 */
final class FlowIndex {
    private final long[] sortedIds;          // when ids ascend: id of the flow at each position
    private final int count;                 // positions in sortedIds that are flows (the rest is spare room)
    private final Map<FlowId, Integer> map;  // otherwise
    private final long[] ids;                // id of the flow at each position, always

    private FlowIndex(long[] ids, long[] sortedIds, int count, Map<FlowId, Integer> map) {
        this.ids = ids;
        this.sortedIds = sortedIds;
        this.count = count;
        this.map = map;
    }

    /**
     * Indexes flows whose ids, already checked to ascend strictly, are {@code ids[0..count)} (now owned
     * here, or lent by a reusable builder until its next state).
     */
    static FlowIndex ofAscending(long[] ids, int count) {
        return new FlowIndex(ids, ids, count, null);
    }

    /** Indexes {@code flows}; duplicate ids are rejected with the flow and its coflow named. */
    static FlowIndex of(List<Flow> flows) {
        long[] ids = new long[flows.size()];
        boolean ascending = true;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = flows.get(i).id().value();
            if (i > 0 && ids[i] <= ids[i - 1]) {
                ascending = false;
            }
        }
        if (ascending) {
            return new FlowIndex(ids, ids, ids.length, null);
        }
        Map<FlowId, Integer> m = new HashMap<>(flows.size() * 2);
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            if (m.put(f.id(), i) != null) {
                throw new IllegalArgumentException("duplicate flow id " + f.id() + " in " + f.coflow());
            }
        }
        return new FlowIndex(ids, null, 0, m);
    }

    /** True when the indexed flows' ids ascend with their positions. */
    boolean ascending() {
        return sortedIds != null;
    }

    /** The id value of the flow at {@code position}. */
    long idAt(int position) {
        return ids[position];
    }

    /** Position of the flow, or -1. */
    int indexOf(FlowId id) {
        if (sortedIds != null) {
            int i = Arrays.binarySearch(sortedIds, 0, count, id.value());
            return i >= 0 ? i : -1;
        }
        Integer i = map.get(id);
        return i == null ? -1 : i;
    }
}
