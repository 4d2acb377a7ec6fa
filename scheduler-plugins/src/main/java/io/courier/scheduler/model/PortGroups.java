package io.courier.scheduler.model;

/**
 * A coflow's unfinished flows grouped by one endpoint host (source or destination): the flows of host
 * {@code h} are {@code flow(k)} for {@code k} in {@code [from(h), to(h))}, ascending by flow index. Immutable
 * (built by {@link ClusterState#unfinishedBySrc} and {@link ClusterState#unfinishedByDst}).
 */
public final class PortGroups {
    private final int[] flows;
    private final int[] start;
    /** Added to every entry of {@code flows}: the same groups for the coflow at another place in a later state. */
    private final int offset;

    PortGroups(int[] flows, int[] start, int offset) {
        this.flows = flows;
        this.start = start;
        this.offset = offset;
    }

    /** These groups for the same flows {@code delta} positions further on (the arrays are shared). */
    PortGroups shifted(int delta) {
        return delta == 0 ? this : new PortGroups(flows, start, offset + delta);
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
        return new PortGroups(flows, start, 0);
    }

    /**
     * These groups without the flows {@code drop[from..to)} (flow indices, each in these groups), whose hosts are
     * {@code host[f]}: the rest is copied in runs, so a few flows finishing in a large coflow cost a copy, not a
     * regrouping.
     */
    PortGroups without(int[] drop, int from, int to, int[] host) {
        int k = to - from;
        long[] keys = new long[k];
        for (int j = 0; j < k; j++) {
            int f = drop[from + j];
            keys[j] = (long) host[f] << 32 | f; // by host, then flow: the order of the entries
        }
        java.util.Arrays.sort(keys);
        int[] at = new int[k];
        for (int j = 0; j < k; j++) {
            int h = (int) (keys[j] >>> 32);
            int f = (int) keys[j];
            at[j] = java.util.Arrays.binarySearch(flows, start[h], start[h + 1], f - offset);
            if (at[j] < 0) {
                throw new IllegalStateException("flow index " + f + " is not in the group of host " + h);
            }
        }
        int[] out = withoutPositions(flows, at);
        int[] outStart = new int[start.length];
        for (int h = 0, j = 0; h < start.length; h++) {
            while (j < k && at[j] < start[h]) {
                j++;
            }
            outStart[h] = start[h] - j;
        }
        return new PortGroups(out, outStart, offset);
    }

    /** {@code array} without the entries at {@code positions} (ascending), the rest copied in runs around them. */
    static int[] withoutPositions(int[] array, int[] positions) {
        int[] out = new int[array.length - positions.length];
        int copied = 0;
        int o = 0;
        for (int at : positions) {
            System.arraycopy(array, copied, out, o, at - copied);
            o += at - copied;
            copied = at + 1;
        }
        System.arraycopy(array, copied, out, o, array.length - copied);
        return out;
    }

    public int from(int host) {
        return start[host];
    }

    public int to(int host) {
        return start[host + 1];
    }

    /** How many of the coflow's unfinished flows have this endpoint host: {@code to(host) - from(host)}. */
    public int count(int host) {
        return start[host + 1] - start[host];
    }

    /** The flow index at position {@code k} (see the class comment). */
    public int flow(int k) {
        return flows[k] + offset;
    }
}
