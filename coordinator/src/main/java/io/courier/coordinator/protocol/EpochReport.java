package io.courier.coordinator.protocol;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A proxy's report for one of its epochs: every unified flow it sends or receives (finished ones once,
 * with {@code finished} set). Also the proxy's heartbeat: the coordinator answers with {@link ReportAck},
 * or {@link NotRegistered} when it does not know the node.
 */
public final class EpochReport implements CoordinatorCommand, CoordinatorMessage {
    private final String nodeId;
    private final long epoch;
    private final List<FlowReport> flows;
    private final ActorRef<ClientCommand> replyTo;

    public EpochReport(String nodeId, long epoch, List<FlowReport> flows, ActorRef<ClientCommand> replyTo) {
        this.nodeId = Checks.text("node id", nodeId);
        this.epoch = Checks.nonNegative("epoch of " + nodeId, epoch);
        this.flows = Checks.list("flows of " + nodeId, flows);
        this.replyTo = Checks.notNull("replyTo of " + nodeId, replyTo);
    }

    public String nodeId() {
        return nodeId;
    }

    public long epoch() {
        return epoch;
    }

    public List<FlowReport> flows() {
        return flows;
    }

    public ActorRef<ClientCommand> replyTo() {
        return replyTo;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof EpochReport)) {
            return false;
        }
        EpochReport r = (EpochReport) o;
        return nodeId.equals(r.nodeId) && epoch == r.epoch && flows.equals(r.flows) && replyTo.equals(r.replyTo);
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode() * 31 + Long.hashCode(epoch);
    }

    @Override
    public String toString() {
        return "EpochReport(" + nodeId + " epoch " + epoch + ", " + flows.size() + " flows)";
    }
}
