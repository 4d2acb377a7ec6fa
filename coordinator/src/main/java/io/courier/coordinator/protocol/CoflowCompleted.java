package io.courier.coordinator.protocol;

/** A job's shuffle is over (the job finished or was killed): its coflow leaves the schedule. Idempotent. */
public final class CoflowCompleted implements CoordinatorCommand, CoordinatorMessage {
    private final String jobId;

    public CoflowCompleted(String jobId) {
        this.jobId = Checks.text("job id", jobId);
    }

    public String jobId() {
        return jobId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CoflowCompleted && ((CoflowCompleted) o).jobId.equals(jobId);
    }

    @Override
    public int hashCode() {
        return jobId.hashCode();
    }

    @Override
    public String toString() {
        return "CoflowCompleted(" + jobId + ")";
    }
}
