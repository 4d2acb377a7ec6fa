package io.courier.scheduler.model;

/**
 * Identity of a coflow (one shuffle of one job). Ordered by its numeric value, which is the
 * "smaller id" tie-breaker of the specification (SCHEDULERS.md §0.4).
 */
public final class CoflowId implements Comparable<CoflowId> {
    private final long value;

    private CoflowId(long value) {
        this.value = value;
    }

    public static CoflowId of(long value) {
        return new CoflowId(value);
    }

    public long value() {
        return value;
    }

    @Override
    public int compareTo(CoflowId o) {
        return Long.compare(value, o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CoflowId && ((CoflowId) o).value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    @Override
    public String toString() {
        return "coflow-" + value;
    }
}
