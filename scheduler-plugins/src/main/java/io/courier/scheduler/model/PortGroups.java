package io.courier.scheduler.model;

/**
 * A coflow's unfinished flows grouped by one endpoint host (source or destination): host {@code h} has
 * {@link #count(int) count(h)} flows, {@code flow(h, j)} for {@code j} in {@code [0, count(h))}, ascending by flow
 * index. Immutable (built by {@link ClusterState#unfinishedBySrc} and {@link ClusterState#unfinishedByDst}).
 *
 * <p>The groups are one array, host after host, built once; when flows finish, a revised state's groups share it and
 * list only the groups of the hosts that lost flows anew ({@link #without}), so a few flows finishing in a wide
 * coflow cost those hosts' groups, not a copy of all of them.
 */
public final class PortGroups {
    private final int[] flows;
    private final int[] start;
    /** Null, or per host: the group that replaces the host's part of {@code flows} ({@code null}: not replaced). */
    private final int[][] replaced;
    /** Added to every entry: the same groups for the coflow at another place in a later state. */
    private final int offset;

    PortGroups(int[] flows, int[] start, int[][] replaced, int offset) {
        this.flows = flows;
        this.start = start;
        this.replaced = replaced;
        this.offset = offset;
    }

    /** These groups for the same flows {@code delta} positions further on (the arrays are shared). */
    PortGroups shifted(int delta) {
        return delta == 0 ? this : new PortGroups(flows, start, replaced, offset + delta);
    }

    /** Groups {@code members} (flow indices, ascending) by {@code host[f]} over {@code hosts} hosts: a counting sort. */
    static PortGroups of(int[] members, int[] host, int hosts) {
        int[] start = new int[hosts + 1];
        for (int f : members) {
            start[host[f] + 1]++;
        }
        for (int h = 0; h < hosts; h++) {
            start[h + 1] += start[h];
        }
        int[] next = java.util.Arrays.copyOf(start, hosts);
        int[] flows = new int[members.length];
        for (int f : members) {
            flows[next[host[f]]++] = f;
        }
        return new PortGroups(flows, start, null, 0);
    }

    /**
     * These groups without the flows {@code drop[from..to)} (flow indices, each in these groups), whose hosts are
     * {@code host[f]}: the groups of the hosts that lose flows are copied around them, every other group is shared.
     */
    PortGroups without(int[] drop, int from, int to, int[] host) {
        int k = to - from;
        long[] keys = new long[k];
        for (int j = 0; j < k; j++) {
            int f = drop[from + j];
            keys[j] = (long) host[f] << 32 | f; // by host, then flow: the order of the entries
        }
        java.util.Arrays.sort(keys);
        int[][] next = replaced == null ? new int[start.length - 1][] : replaced.clone();
        for (int j = 0; j < k; ) {
            int h = (int) (keys[j] >>> 32);
            int e = j;
            while (e < k && (int) (keys[e] >>> 32) == h) {
                e++;
            }
            int[] group = next[h];
            int lo = group == null ? start[h] : 0;
            int hi = group == null ? start[h + 1] : group.length;
            int[] array = group == null ? flows : group;
            int[] at = new int[e - j];
            for (int i = j; i < e; i++) {
                int f = (int) keys[i];
                int pos = java.util.Arrays.binarySearch(array, lo, hi, f - offset);
                if (pos < 0) {
                    throw new IllegalStateException("flow index " + f + " is not in the group of host " + h);
                }
                at[i - j] = pos - lo;
            }
            next[h] = withoutPositions(array, lo, hi, at);
            j = e;
        }
        return new PortGroups(flows, start, next, offset);
    }

    /** {@code array} without the entries at {@code positions} (ascending), the rest copied in runs around them. */
    static int[] withoutPositions(int[] array, int[] positions) {
        return withoutPositions(array, 0, array.length, positions);
    }

    /** {@code array[lo..hi)} without the entries at {@code positions} (ascending, relative to {@code lo}). */
    private static int[] withoutPositions(int[] array, int lo, int hi, int[] positions) {
        int[] out = new int[hi - lo - positions.length];
        int copied = 0;
        int o = 0;
        for (int at : positions) {
            System.arraycopy(array, lo + copied, out, o, at - copied);
            o += at - copied;
            copied = at + 1;
        }
        System.arraycopy(array, lo + copied, out, o, hi - lo - copied);
        return out;
    }

    /** How many of the coflow's unfinished flows have this endpoint host. */
    public int count(int host) {
        int[] group = replaced == null ? null : replaced[host];
        return group != null ? group.length : start[host + 1] - start[host];
    }

    /** The flow index of the {@code j}-th flow (ascending) of {@code host}'s group, {@code 0 <= j < count(host)}. */
    public int flow(int host, int j) {
        int[] group = replaced == null ? null : replaced[host];
        return (group != null ? group[j] : flows[start[host] + j]) + offset;
    }
}
