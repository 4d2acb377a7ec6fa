package io.courier.coordinator.protocol;

/**
 * A proxy saw a job's shuffle start: the coflow of that job exists. Idempotent — every proxy of the job may
 * send it; the coordinator keeps the first. {@code weight} is the job's {@code courier.coflow.weight}
 * (or NaN when unset); {@code priority} is its {@code mapreduce.job.priority} name (VERY_HIGH..VERY_LOW, or
 * empty when unknown), used only when no weight is given. {@code arrivalMillis}: epoch millis of the shuffle's
 * start as the proxy saw it.
 */
public final class CoflowRegistered implements CoordinatorCommand, CoordinatorMessage {
    private final String jobId;
    private final double weight;
    private final String priority;
    private final long arrivalMillis;

    public CoflowRegistered(String jobId, double weight, String priority, long arrivalMillis) {
        this.jobId = Checks.text("job id", jobId);
        if (!Double.isNaN(weight) && (Double.isInfinite(weight) || weight <= 0)) {
            throw new IllegalArgumentException("weight of " + jobId + " must be > 0 and finite (or NaN = unset), got "
                    + weight);
        }
        this.weight = weight;
        this.priority = priority == null ? "" : priority;
        this.arrivalMillis = Checks.nonNegative("arrival of " + jobId, arrivalMillis);
    }

    public String jobId() {
        return jobId;
    }

    /** The explicit weight, or NaN when the job set none. */
    public double weight() {
        return weight;
    }

    /** The job priority's name, or "" when unknown. */
    public String priority() {
        return priority;
    }

    public long arrivalMillis() {
        return arrivalMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CoflowRegistered)) {
            return false;
        }
        CoflowRegistered c = (CoflowRegistered) o;
        return jobId.equals(c.jobId) && Double.compare(weight, c.weight) == 0 && priority.equals(c.priority)
                && arrivalMillis == c.arrivalMillis;
    }

    @Override
    public int hashCode() {
        return jobId.hashCode();
    }

    @Override
    public String toString() {
        return "CoflowRegistered(" + jobId + " weight=" + weight + " priority=" + priority + " arrival="
                + arrivalMillis + ")";
    }
}
