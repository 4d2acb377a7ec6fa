package io.courier.coordinator.protocol;

import java.util.List;

/**
 * The decisions of one coordinator epoch for the flows one node sends or receives (only those). Epochs
 * increase within one coordinator incarnation; {@code orderBased} tells the proxy whether to enforce
 * priorities (order-based scheduler) or rates.
 */
public final class DecisionUpdate implements ClientCommand, CoordinatorMessage {
    private final long epoch;
    private final String scheduler;
    private final boolean orderBased;
    private final List<FlowDecision> flows;

    public DecisionUpdate(long epoch, String scheduler, boolean orderBased, List<FlowDecision> flows) {
        this.epoch = Checks.nonNegative("epoch", epoch);
        this.scheduler = Checks.text("scheduler", scheduler);
        this.orderBased = orderBased;
        this.flows = Checks.list("decisions", flows);
    }

    public long epoch() {
        return epoch;
    }

    public String scheduler() {
        return scheduler;
    }

    public boolean orderBased() {
        return orderBased;
    }

    public List<FlowDecision> flows() {
        return flows;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DecisionUpdate)) {
            return false;
        }
        DecisionUpdate d = (DecisionUpdate) o;
        return epoch == d.epoch && scheduler.equals(d.scheduler) && orderBased == d.orderBased
                && flows.equals(d.flows);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch);
    }

    @Override
    public String toString() {
        return "DecisionUpdate(epoch " + epoch + ", " + scheduler + ", " + flows + ")";
    }
}
