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
