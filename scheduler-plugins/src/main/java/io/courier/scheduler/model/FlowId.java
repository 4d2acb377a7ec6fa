package io.courier.scheduler.model;

/**
 * Identity of a flow (one source→destination transfer of a coflow). Ordered by its numeric value, which is the
 * "ascending flowId" order used by the E1 enforcer (SCHEDULERS.md §0.3).
 */
public final class FlowId implements Comparable<FlowId> {
    private final long value;

    private FlowId(long value) {
        this.value = value;
    }

    public static FlowId of(long value) {
        return new FlowId(value);
    }

    public long value() {
        return value;
    }

    @Override
    public int compareTo(FlowId o) {
        return Long.compare(value, o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlowId && ((FlowId) o).value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    @Override
    public String toString() {
        return "flow-" + value;
    }
}
