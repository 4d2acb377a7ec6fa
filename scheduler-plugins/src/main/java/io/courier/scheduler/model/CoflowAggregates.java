package io.courier.scheduler.model;

/**
 * Per-coflow sums over a {@link ClusterState}'s flows, each computed on first use and then kept: over its unfinished
 * flows the remaining bytes per port ({@link ClusterState#remainingPortLoads}) and the flows grouped by source and by
 * destination host ({@link ClusterState#unfinishedBySrc}, {@link ClusterState#unfinishedByDst}); over all its flows
 * the bytes sent, per port and in all ({@link ClusterState#sentPortSums}, {@link ClusterState#sentBy}), and the hosts
 * they touch ({@link ClusterState#sourceHostsOf}, {@link ClusterState#destinationHostsOf}). A revised state
 * ({@link ColumnarStateBuilder#revise}) keeps the entries of the coflows none of whose flows changed, which is
 * what makes a decision between two arrivals cost in proportion to the coflows that moved. Safe for concurrent
 * readers: every entry is an object whose fields are final, so publishing it through a plain array is safe
 * (two threads may both compute one; they compute the same).
 */
final class CoflowAggregates {
    /** Remaining bytes per port; a holder so that the array is published through a final field. */
    static final class Loads {
        final double[] perPort;

        Loads(double[] perPort) {
            this.perPort = perPort;
        }
    }

    /**
     * Loads computed for an earlier state of the coflow, right except on some ports (host ports, as the loads index
     * them): where a flow's sent bytes or finished flag changed since. Those ports are summed again over the
     * coflow's host groups, in the same flow order as a whole sum, so the result is the same to the last bit.
     */
    static final class StaleLoads {
        final double[] base;
        final int[] ports;

        StaleLoads(double[] base, int[] ports) {
            this.base = base;
            this.ports = ports;
        }
    }

    /**
     * The distinct source and destination hosts of all a coflow's flows, finished ones included, ascending; a holder
     * so that the arrays are published through final fields. They stay right while the coflow's flows are the same
     * flows, whatever finishes, so every later state of the coflow keeps them.
     */
    static final class Hosts {
        final int[] src;
        final int[] dst;

        Hosts(int[] src, int[] dst) {
            this.src = src;
            this.dst = dst;
        }
    }

    /** {@link #groups} by source host. */
    static final int SRC = 0;
    /** {@link #groups} by destination host. */
    static final int DST = 1;

    private final Loads[] loads;
    private final StaleLoads[] stale;
    /** Bytes sent per port, finished flows included ({@link ClusterState#sentPortSums}); kept while sent bytes are. */
    private final PortSums[] sent;
    /** Bytes sent in all, finished flows included ({@link ClusterState#sentBy}); kept while sent bytes are. */
    private final Double[] sentTotal;
    private final PortGroups[][] groups; // [SRC or DST][coflow]
    private final Hosts[] hosts;

    CoflowAggregates(int coflows) {
        hosts = new Hosts[coflows];
        loads = new Loads[coflows];
        stale = new StaleLoads[coflows];
        sent = new PortSums[coflows];
        sentTotal = new Double[coflows];
        groups = new PortGroups[][] {new PortGroups[coflows], new PortGroups[coflows]};
    }

    /** The loads of {@code coflow}, or null when not computed yet. */
    double[] loads(int coflow) {
        Loads l = loads[coflow];
        return l == null ? null : l.perPort;
    }

    void loads(int coflow, double[] value) {
        loads[coflow] = new Loads(value);
    }

    /** The earlier loads of {@code coflow} and the ports where they are out of date, or null (see {@link StaleLoads}). */
    StaleLoads staleLoads(int coflow) {
        return stale[coflow];
    }

    /** The bytes sent per port of {@code coflow}, or null when not computed yet. */
    PortSums sentSums(int coflow) {
        return sent[coflow];
    }

    void sentSums(int coflow, PortSums value) {
        sent[coflow] = value;
    }

    /** The bytes {@code coflow} sent in all, or null when not computed yet. */
    Double sentTotal(int coflow) {
        return sentTotal[coflow];
    }

    void sentTotal(int coflow, Double value) {
        sentTotal[coflow] = value;
    }

    /** Whether the loads of {@code coflow} are known here, up to date or stale: only then can a later state refresh them. */
    boolean knowsLoads(int coflow) {
        return coflow < loads.length && (loads[coflow] != null || stale[coflow] != null);
    }

    /**
     * Notes that the loads {@code prev} had (or itself knew as stale) for coflow {@code from} hold for coflow
     * {@code to} of these aggregates except on {@code ports} (distinct): nothing when {@code prev} knew neither.
     */
    void staleLoads(int to, CoflowAggregates prev, int from, int[] ports, int portCount) {
        Loads known = prev.loads[from];
        if (known != null) {
            stale[to] = new StaleLoads(known.perPort, java.util.Arrays.copyOf(ports, portCount));
            return;
        }
        StaleLoads older = prev.stale[from];
        if (older == null) {
            return;
        }
        int[] union = java.util.Arrays.copyOf(older.ports, older.ports.length + portCount);
        int n = older.ports.length;
        for (int k = 0; k < portCount; k++) {
            boolean seen = false;
            for (int j = 0; j < older.ports.length && !seen; j++) {
                seen = older.ports[j] == ports[k];
            }
            if (!seen) {
                union[n++] = ports[k];
            }
        }
        stale[to] = new StaleLoads(older.base, java.util.Arrays.copyOf(union, n));
    }

    /** The hosts of {@code coflow}'s flows, or null when not computed yet. */
    Hosts hosts(int coflow) {
        return hosts[coflow];
    }

    void hosts(int coflow, Hosts value) {
        hosts[coflow] = value;
    }

    /** The groups of {@code coflow} by {@code side} ({@link #SRC} or {@link #DST}), or null when not computed yet. */
    PortGroups groups(int side, int coflow) {
        return groups[side][coflow];
    }

    void groups(int side, int coflow, PortGroups value) {
        groups[side][coflow] = value;
    }

    /**
     * Takes the sums of coflow {@code from} of {@code prev} (a state built before) for coflow {@code to} of this
     * one, whose flows are the same flows with the same endpoints and finished flags, {@code shift} positions
     * further on: the hosts, the host groups, and the loads and sent bytes when {@code withLoads} (the sent bytes are
     * the same too).
     */
    void carry(int to, CoflowAggregates prev, int from, int shift, boolean withLoads) {
        hosts[to] = prev.hosts[from];
        if (withLoads) {
            loads[to] = prev.loads[from];
            stale[to] = prev.stale[from];
            sent[to] = prev.sent[from];
            sentTotal[to] = prev.sentTotal[from];
        }
        for (int side = SRC; side <= DST; side++) {
            PortGroups g = prev.groups[side][from];
            groups[side][to] = g == null ? null : g.shifted(shift);
        }
    }

    /**
     * The aggregates of the next revision of the state: a coflow keeps its hosts (a revision changes no flow's
     * endpoints), its loads and sent bytes unless a flow's sent bytes or finished flag changed
     * ({@code valuesChanged}), and its groups unless a finished flag changed ({@code finishedChanged}); the revised
     * state keeps the first {@code kept} of these coflows and has {@code coflows} in all, those a revision appends
     * after the kept ones included (they start with nothing computed).
     */
    CoflowAggregates revised(boolean[] valuesChanged, boolean[] finishedChanged, int kept, int coflows) {
        CoflowAggregates next = new CoflowAggregates(coflows); // coflows appended after these start empty
        System.arraycopy(hosts, 0, next.hosts, 0, kept);
        for (int c = 0; c < kept; c++) {
            if (!valuesChanged[c]) {
                next.loads[c] = loads[c];
                next.stale[c] = stale[c];
                next.sent[c] = sent[c];
                next.sentTotal[c] = sentTotal[c];
            }
            if (!finishedChanged[c]) {
                next.groups[SRC][c] = groups[SRC][c];
                next.groups[DST][c] = groups[DST][c];
            }
        }
        return next;
    }

    /**
     * Sets the groups of {@code coflow} to those it had in {@code prev} (the aggregates this revision started from)
     * without the flows {@code finished[from..to)} (ascending flow indices of the coflow, unfinished in {@code prev},
     * finished now); groups {@code prev} had not computed stay uncomputed.
     */
    void groupsWithout(int coflow, CoflowAggregates prev, int[] finished, int from, int to, int[] srcOf, int[] dstOf) {
        PortGroups bySrc = prev.groups[SRC][coflow];
        PortGroups byDst = prev.groups[DST][coflow];
        groups[SRC][coflow] = bySrc == null ? null : bySrc.without(finished, from, to, srcOf);
        groups[DST][coflow] = byDst == null ? null : byDst.without(finished, from, to, dstOf);
    }
}
