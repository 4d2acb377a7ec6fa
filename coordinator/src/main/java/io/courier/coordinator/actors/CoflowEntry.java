package io.courier.coordinator.actors;

import io.courier.scheduler.model.CoflowId;

/**
 * A registered coflow: one job's shuffle, its numeric id for the scheduler, its weight and its arrival
 * (seconds since the coordinator started, the clock the scheduler sees). Immutable.
 */
public final class CoflowEntry {
    private final String jobId;
    private final CoflowId id;
    private final double weight;
    private final String weightSource;
    private final double arrivalSeconds;

    CoflowEntry(String jobId, CoflowId id, double weight, String weightSource, double arrivalSeconds) {
        this.jobId = jobId;
        this.id = id;
        this.weight = weight;
        this.weightSource = weightSource;
        this.arrivalSeconds = arrivalSeconds;
    }

    public String jobId() {
        return jobId;
    }

    public CoflowId id() {
        return id;
    }

    public double weight() {
        return weight;
    }

    /** Where the weight came from: "courier.coflow.weight", "priority VERY_HIGH", or "default". */
    public String weightSource() {
        return weightSource;
    }

    public double arrivalSeconds() {
        return arrivalSeconds;
    }
}
