package io.courier.scheduler.model;

/** A coflow: the set of flows of one shuffle; it completes when its last flow completes. Immutable. */
public final class Coflow {
    private final CoflowId id;
    private final double arrival;
    private final double weight;

    public Coflow(CoflowId id, double arrival, double weight) {
        if (id == null) {
            throw new IllegalArgumentException("coflow id must not be null");
        }
        if (!Double.isFinite(arrival) || arrival < 0) {
            throw new IllegalArgumentException(id + ": arrival must be a finite time >= 0, got " + arrival);
        }
        if (!Double.isFinite(weight) || weight <= 0) {
            throw new IllegalArgumentException(id + ": weight must be finite and > 0, got " + weight);
        }
        this.id = id;
        this.arrival = arrival;
        this.weight = weight;
    }

    public static Coflow of(long id, double arrival) {
        return new Coflow(CoflowId.of(id), arrival, 1.0);
    }

    public CoflowId id() {
        return id;
    }

    public double arrival() {
        return arrival;
    }

    public double weight() {
        return weight;
    }

    public Coflow withWeight(double newWeight) {
        return new Coflow(id, arrival, newWeight);
    }

    @Override
    public String toString() {
        return id + "(arrival=" + arrival + ", weight=" + weight + ")";
    }
}
