package io.courier.coordinator.protocol;

/**
 * The coordinator's decision for one unified flow. {@code rate} is bytes/s (for order-based schedulers
 * the rate their enforcer gives the flow, advisory); {@code priority} is the flow's priority class and
 * {@code coflowRank} its coflow's position in the order (0 = highest), both {@code -1} for rate-based
 * schedulers. Immutable.
 */
public final class FlowDecision {
    private final String jobId;
    private final String srcNode;
    private final String dstNode;
    private final double rate;
    private final int priority;
    private final int coflowRank;

    public FlowDecision(String jobId, String srcNode, String dstNode, double rate, int priority, int coflowRank) {
        this.jobId = Checks.text("job id", jobId);
        this.srcNode = Checks.text("source node of " + jobId, srcNode);
        this.dstNode = Checks.text("destination node of " + jobId, dstNode);
        this.rate = Checks.finiteNonNegative("rate of " + jobId + " " + srcNode + "->" + dstNode, rate);
        if (priority < -1 || coflowRank < -1) {
            throw new IllegalArgumentException("priority and rank of " + jobId + " " + srcNode + "->" + dstNode
                    + " must be >= 0 or -1, got " + priority + ", " + coflowRank);
        }
        this.priority = priority;
        this.coflowRank = coflowRank;
    }

    public String jobId() {
        return jobId;
    }

    public String srcNode() {
        return srcNode;
    }

    public String dstNode() {
        return dstNode;
    }

    public double rate() {
        return rate;
    }

    public int priority() {
        return priority;
    }

    public int coflowRank() {
        return coflowRank;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlowDecision)) {
            return false;
        }
        FlowDecision d = (FlowDecision) o;
        return jobId.equals(d.jobId) && srcNode.equals(d.srcNode) && dstNode.equals(d.dstNode)
                && Double.compare(rate, d.rate) == 0 && priority == d.priority && coflowRank == d.coflowRank;
    }

    @Override
    public int hashCode() {
        return (jobId.hashCode() * 31 + srcNode.hashCode()) * 31 + dstNode.hashCode();
    }

    @Override
    public String toString() {
        return "FlowDecision(" + jobId + " " + srcNode + "->" + dstNode + " rate=" + rate + " priority=" + priority
                + " rank=" + coflowRank + ")";
    }
}
