package io.courier.coordinator.protocol;

/**
 * The coordinator accepted a node. {@code coordinatorId} names the coordinator's incarnation (it changes
 * when the coordinator restarts); {@code epochMillis} is its scheduling epoch.
 */
public final class NodeRegistered implements ClientCommand, CoordinatorMessage {
    private final String nodeId;
    private final String coordinatorId;
    private final long epochMillis;

    public NodeRegistered(String nodeId, String coordinatorId, long epochMillis) {
        this.nodeId = Checks.text("node id", nodeId);
        this.coordinatorId = Checks.text("coordinator id", coordinatorId);
        this.epochMillis = Checks.nonNegative("epoch", epochMillis);
    }

    public String nodeId() {
        return nodeId;
    }

    public String coordinatorId() {
        return coordinatorId;
    }

    public long epochMillis() {
        return epochMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof NodeRegistered)) {
            return false;
        }
        NodeRegistered r = (NodeRegistered) o;
        return nodeId.equals(r.nodeId) && coordinatorId.equals(r.coordinatorId) && epochMillis == r.epochMillis;
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode();
    }

    @Override
    public String toString() {
        return "NodeRegistered(" + nodeId + " by " + coordinatorId + ", epoch " + epochMillis + " ms)";
    }
}
