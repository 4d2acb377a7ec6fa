package io.courier.shuffle.coordination;

/**
 * What the job says about its coflow's importance: {@code courier.coflow.weight} (NaN when unset or unreadable)
 * and {@code mapreduce.job.priority} (empty when unknown). The coordinator uses the weight, else maps the priority
 * through its {@code priority-weights}. Immutable.
 */
public final class CoflowHint {
    /** Nothing known: the coordinator gives the coflow its default weight. */
    public static final CoflowHint NONE = new CoflowHint(Double.NaN, "");

    private final double weight;
    private final String priority;

    public CoflowHint(double weight, String priority) {
        if (!Double.isNaN(weight) && (Double.isInfinite(weight) || weight <= 0)) {
            throw new IllegalArgumentException("coflow weight must be > 0 and finite (or NaN = unset), got " + weight);
        }
        this.weight = weight;
        this.priority = priority == null ? "" : priority;
    }

    public double weight() {
        return weight;
    }

    public String priority() {
        return priority;
    }

    @Override
    public String toString() {
        return "CoflowHint(weight=" + (Double.isNaN(weight) ? "unset" : String.valueOf(weight)) + ", priority="
                + (priority.isEmpty() ? "unknown" : priority) + ")";
    }

    /** Where a proxy learns the hint of a job it serves. Called on the coordination's planning thread. */
    public interface Source {
        CoflowHint hintFor(String job);
    }
}
