package io.courier.simulator.workload;

import io.courier.scheduler.model.Network;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a simulation replays: a big-switch network and coflows, sorted by (arrival, id). Every flow's
 * hosts must exist in the network and coflow ids must be unique. Immutable; transformations (load
 * scaling, weights) return new workloads.
 */
public final class Workload {
    private final String name;
    private final Network network;
    private final List<WorkloadCoflow> coflows;

    public Workload(String name, Network network, List<WorkloadCoflow> coflows) {
        List<WorkloadCoflow> sorted = new ArrayList<>(coflows);
        sorted.sort(Comparator.comparingDouble(WorkloadCoflow::arrival).thenComparingLong(WorkloadCoflow::id));
        Set<Long> ids = new HashSet<>();
        int hosts = network.hostCount();
        for (WorkloadCoflow c : sorted) {
            if (!ids.add(c.id())) {
                throw new IllegalArgumentException(name + ": duplicate coflow id " + c.id());
            }
            for (WorkloadFlow f : c.flows()) {
                if (f.src() >= hosts || f.dst() >= hosts) {
                    throw new IllegalArgumentException(name + ": coflow " + c.id() + " has flow " + f
                            + " outside the network's " + hosts + " hosts");
                }
            }
        }
        this.name = name;
        this.network = network;
        this.coflows = Collections.unmodifiableList(sorted);
    }

    /** Where the workload came from (trace file, generator spec), for reports. */
    public String name() {
        return name;
    }

    public Network network() {
        return network;
    }

    public List<WorkloadCoflow> coflows() {
        return coflows;
    }

    public int flowCount() {
        int n = 0;
        for (WorkloadCoflow c : coflows) {
            n += c.flows().size();
        }
        return n;
    }

    public Workload withCoflows(String newName, List<WorkloadCoflow> newCoflows) {
        return new Workload(newName, network, newCoflows);
    }

    @Override
    public String toString() {
        return name + " (" + network.hostCount() + " hosts, " + coflows.size() + " coflows, " + flowCount() + " flows)";
    }
}
