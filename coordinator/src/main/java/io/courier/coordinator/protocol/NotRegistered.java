package io.courier.coordinator.protocol;

/**
 * The coordinator does not know the node that sent a report (it restarted, or expired the node after
 * silence): the proxy must register again before its reports count.
 */
public final class NotRegistered implements ClientCommand, CoordinatorMessage {
    private final String nodeId;

    public NotRegistered(String nodeId) {
        this.nodeId = Checks.text("node id", nodeId);
    }

    public String nodeId() {
        return nodeId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NotRegistered && ((NotRegistered) o).nodeId.equals(nodeId);
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode();
    }

    @Override
    public String toString() {
        return "NotRegistered(" + nodeId + ")";
    }
}
