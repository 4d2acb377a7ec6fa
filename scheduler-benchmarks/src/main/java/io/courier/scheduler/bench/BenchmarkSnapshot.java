package io.courier.scheduler.bench;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Flow;

/** A cluster state to benchmark schedulers on, with a line saying where it came from. Immutable. */
public final class BenchmarkSnapshot {
    private final String origin;
    private final ClusterState state;

    public BenchmarkSnapshot(String origin, ClusterState state) {
        this.origin = origin;
        this.state = state;
    }

    /** How the snapshot was made, e.g. the trace file and the instant chosen. */
    public String origin() {
        return origin;
    }

    /** The full state (sizes visible); hand schedulers {@code state().viewFor(needs)}. */
    public ClusterState state() {
        return state;
    }

    public int unfinishedFlowCount() {
        int n = 0;
        for (Flow f : state.flows()) {
            if (!f.finished()) {
                n++;
            }
        }
        return n;
    }

    /** One line for logs and reports: origin, instant, ports and the counts a scheduler's cost depends on. */
    public String describe() {
        return origin + ": t=" + state.now() + " s, " + state.network().hostCount() + " ports, "
                + state.coflowCount() + " active coflows, " + state.flowCount() + " flows ("
                + unfinishedFlowCount() + " unfinished)";
    }

    @Override
    public String toString() {
        return describe();
    }
}
