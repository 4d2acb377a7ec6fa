package io.courier.simulator.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A coflow of a workload: an id, an arrival time (s), a weight and its flows. Immutable. */
public final class WorkloadCoflow {
    private final long id;
    private final double arrival;
    private final double weight;
    private final List<WorkloadFlow> flows;

    public WorkloadCoflow(long id, double arrival, double weight, List<WorkloadFlow> flows) {
        if (!Double.isFinite(arrival) || arrival < 0) {
            throw new IllegalArgumentException("coflow " + id + ": arrival must be a finite time >= 0, got " + arrival);
        }
        if (!Double.isFinite(weight) || weight <= 0) {
            throw new IllegalArgumentException("coflow " + id + ": weight must be finite and > 0, got " + weight);
        }
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("coflow " + id + " has no flows");
        }
        this.id = id;
        this.arrival = arrival;
        this.weight = weight;
        this.flows = Collections.unmodifiableList(new ArrayList<>(flows));
    }

    public long id() {
        return id;
    }

    public double arrival() {
        return arrival;
    }

    public double weight() {
        return weight;
    }

    public List<WorkloadFlow> flows() {
        return flows;
    }

    public WorkloadCoflow withArrival(double newArrival) {
        return new WorkloadCoflow(id, newArrival, weight, flows);
    }

    public WorkloadCoflow withWeight(double newWeight) {
        return new WorkloadCoflow(id, arrival, newWeight, flows);
    }

    /** Total bytes of all flows. */
    public double totalBytes() {
        double s = 0;
        for (WorkloadFlow f : flows) {
            s += f.bytes();
        }
        return s;
    }

    /** The largest flow's bytes (the "short/long" criterion of the coflow bins). */
    public double largestFlowBytes() {
        double m = 0;
        for (WorkloadFlow f : flows) {
            m = Math.max(m, f.bytes());
        }
        return m;
    }

    public int width() {
        return flows.size();
    }

    @Override
    public String toString() {
        return "coflow " + id + "(arrival=" + arrival + ", weight=" + weight + ", flows=" + flows.size() + ")";
    }
}
