package io.courier.scheduler.model;

/**
 * Per-coflow sums over a {@link ClusterState}'s unfinished flows, each computed on first use and then kept:
 * the remaining bytes per port ({@link ClusterState#remainingPortLoads}) and the flows grouped by source and by
 * destination host ({@link ClusterState#unfinishedBySrc}, {@link ClusterState#unfinishedByDst}). A revised state
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

    /** {@link #groups} by source host. */
    static final int SRC = 0;
    /** {@link #groups} by destination host. */
    static final int DST = 1;

    private final Loads[] loads;
    private final PortGroups[][] groups; // [SRC or DST][coflow]

    CoflowAggregates(int coflows) {
        loads = new Loads[coflows];
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

    /** The groups of {@code coflow} by {@code side} ({@link #SRC} or {@link #DST}), or null when not computed yet. */
    PortGroups groups(int side, int coflow) {
        return groups[side][coflow];
    }

    void groups(int side, int coflow, PortGroups value) {
        groups[side][coflow] = value;
    }

    /**
     * Takes the sums of coflow {@code from} of {@code prev} (a state built before) for coflow {@code to} of this
     * one, whose flows are the same flows with the same values, {@code shift} positions further on.
     */
    void carry(int to, CoflowAggregates prev, int from, int shift) {
        loads[to] = prev.loads[from];
        for (int side = SRC; side <= DST; side++) {
            PortGroups g = prev.groups[side][from];
            groups[side][to] = g == null ? null : g.shifted(shift);
        }
    }

    /**
     * The aggregates of the next revision of the state: a coflow keeps its loads unless a flow's sent bytes or
     * finished flag changed ({@code valuesChanged}), and its groups unless a finished flag changed
     * ({@code finishedChanged}).
     */
    CoflowAggregates revised(boolean[] valuesChanged, boolean[] finishedChanged) {
        int n = loads.length;
        CoflowAggregates next = new CoflowAggregates(n);
        for (int c = 0; c < n; c++) {
            if (!valuesChanged[c]) {
                next.loads[c] = loads[c];
            }
            if (!finishedChanged[c]) {
                next.groups[SRC][c] = groups[SRC][c];
                next.groups[DST][c] = groups[DST][c];
            }
        }
        return next;
    }
}
