package io.courier.coordinator.protocol;

/**
 * One node as its proxy describes it: a stable node id, the NodeManager's shuffle endpoint
 * ({@code host:port}, how reducers name the node), the Courier proxy endpoint ({@code host:port}) and the
 * node's port capacities in bytes/s (up = sending, down = receiving; 0 = unknown: the coordinator
 * then assumes its configured default). Immutable.
 */
public final class NodeInfo {
    private final String nodeId;
    private final String shuffleEndpoint;
    private final String proxyEndpoint;
    private final long upBytesPerSecond;
    private final long downBytesPerSecond;

    public NodeInfo(String nodeId, String shuffleEndpoint, String proxyEndpoint, long upBytesPerSecond,
            long downBytesPerSecond) {
        this.nodeId = Checks.text("node id", nodeId);
        this.shuffleEndpoint = Checks.text("shuffle endpoint of " + nodeId, shuffleEndpoint);
        this.proxyEndpoint = Checks.text("proxy endpoint of " + nodeId, proxyEndpoint);
        if (upBytesPerSecond < 0 || downBytesPerSecond < 0) {
            throw new IllegalArgumentException("capacities of " + nodeId + " must be >= 0 bytes/s (0 = unknown), got up="
                    + upBytesPerSecond + " down=" + downBytesPerSecond);
        }
        this.upBytesPerSecond = upBytesPerSecond;
        this.downBytesPerSecond = downBytesPerSecond;
    }

    public String nodeId() {
        return nodeId;
    }

    public String shuffleEndpoint() {
        return shuffleEndpoint;
    }

    public String proxyEndpoint() {
        return proxyEndpoint;
    }

    public long upBytesPerSecond() {
        return upBytesPerSecond;
    }

    public long downBytesPerSecond() {
        return downBytesPerSecond;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof NodeInfo)) {
            return false;
        }
        NodeInfo n = (NodeInfo) o;
        return nodeId.equals(n.nodeId) && shuffleEndpoint.equals(n.shuffleEndpoint)
                && proxyEndpoint.equals(n.proxyEndpoint) && upBytesPerSecond == n.upBytesPerSecond
                && downBytesPerSecond == n.downBytesPerSecond;
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode() * 31 + proxyEndpoint.hashCode();
    }

    @Override
    public String toString() {
        return "Node(" + nodeId + " shuffle=" + shuffleEndpoint + " proxy=" + proxyEndpoint + " up="
                + upBytesPerSecond + " down=" + downBytesPerSecond + ")";
    }
}
