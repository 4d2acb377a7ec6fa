package io.courier.shuffle.proxy.protocol;

/**
 * Sent by a relaying proxy to its task just before a relayed stream's SEGMENT_HEADER: names the proxy-to-proxy
 * connection that serves the stream, so the task can count the distinct node-pair connections it used.
 */
public final class RouteFrame implements Frame {
    private final int streamId;
    private final String connection;

    public RouteFrame(int streamId, String connection) {
        this.streamId = Checks.streamId(streamId);
        this.connection = Checks.identifier("connection", connection);
    }

    @Override
    public FrameType type() {
        return FrameType.ROUTE;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    /** Identifier of the serving connection, unique within the relaying proxy's lifetime. */
    public String connection() {
        return connection;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RouteFrame && ((RouteFrame) o).streamId == streamId
                && ((RouteFrame) o).connection.equals(connection);
    }

    @Override
    public int hashCode() {
        return streamId * 31 + connection.hashCode();
    }

    @Override
    public String toString() {
        return "ROUTE(stream=" + streamId + ", " + connection + ")";
    }
}
