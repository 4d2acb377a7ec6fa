package io.courier.coordinator.protocol;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A proxy's report in the compact form (wire id 113, the successor of {@link EpochReport}): the node's flows as
 * the proxy sees them now, WITHOUT a reply reference in the usual case: the coordinator answers through the
 * reference the node gave when it registered ({@link RegisterNode}), so a report does not carry (and the
 * coordinator does not resolve) an actor path every time. {@code replyTo} is present only when the client has
 * not heard from the coordinator for a while: a coordinator that restarted and no longer knows the node needs
 * it to answer {@link NotRegistered}.
 *
 * <p>Sent by a client that suppresses reports (docs/coordinator.md, "Reports"): it evaluates its flows every
 * report interval but sends only when they say something the coordinator cannot predict, or as a heartbeat.
 * The coordinator therefore extrapolates every sender row of this message from the time it received it: bytes
 * sent grow at {@code measuredRate}, at most up to sent + pending. {@code heartbeatMillis} is the longest the
 * client stays silent while registered (0 = it sends every interval).
 */
public final class NodeReport implements CoordinatorCommand, CoordinatorMessage {
    private final String nodeId;
    private final long epoch;
    private final long heartbeatMillis;
    private final List<FlowReport> flows;
    private final ActorRef<ClientCommand> replyTo;

    /**
     * @param replyTo where to answer when the coordinator does not know the node, or {@code null}: answer
     *     through the registration's reference
     */
    public NodeReport(String nodeId, long epoch, long heartbeatMillis, List<FlowReport> flows,
            ActorRef<ClientCommand> replyTo) {
        this.nodeId = Checks.text("node id", nodeId);
        this.epoch = Checks.nonNegative("epoch of " + nodeId, epoch);
        this.heartbeatMillis = Checks.nonNegative("heartbeat of " + nodeId, heartbeatMillis);
        this.flows = Checks.list("flows of " + nodeId, flows);
        this.replyTo = replyTo;
    }

    public String nodeId() {
        return nodeId;
    }

    public long epoch() {
        return epoch;
    }

    /** The longest interval between two reports of this node while it is registered; 0 = every report interval. */
    public long heartbeatMillis() {
        return heartbeatMillis;
    }

    public List<FlowReport> flows() {
        return flows;
    }

    /** The reference to answer an unknown node through, or {@code null} (use the registration's). */
    public ActorRef<ClientCommand> replyTo() {
        return replyTo;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof NodeReport)) {
            return false;
        }
        NodeReport r = (NodeReport) o;
        return nodeId.equals(r.nodeId) && epoch == r.epoch && heartbeatMillis == r.heartbeatMillis
                && flows.equals(r.flows) && (replyTo == null ? r.replyTo == null : replyTo.equals(r.replyTo));
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode() * 31 + Long.hashCode(epoch);
    }

    @Override
    public String toString() {
        return "NodeReport(" + nodeId + " epoch " + epoch + ", " + flows.size() + " flows"
                + (replyTo == null ? "" : ", with reply reference") + ")";
    }
}
