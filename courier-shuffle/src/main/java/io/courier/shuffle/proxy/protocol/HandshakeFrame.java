package io.courier.shuffle.proxy.protocol;

/** First frame in each direction: names the sending node (its proxy endpoint {@code host:port}). */
public final class HandshakeFrame implements Frame {
    private final String nodeId;

    public HandshakeFrame(String nodeId) {
        this.nodeId = Checks.identifier("node id", nodeId);
    }

    public String nodeId() {
        return nodeId;
    }

    @Override
    public FrameType type() {
        return FrameType.HANDSHAKE;
    }

    @Override
    public int streamId() {
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HandshakeFrame && ((HandshakeFrame) o).nodeId.equals(nodeId);
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode();
    }

    @Override
    public String toString() {
        return "HANDSHAKE(" + nodeId + ")";
    }
}
