package io.courier.shuffle.proxy.protocol;

/**
 * Sent by a serving proxy on stream 0: SelectAndSplit gave this node pair {@code count} network flows, so the
 * fetching proxy should spread new fetches over that many connections (1 = one merged connection).
 */
public final class ConnectionsFrame implements Frame {
    private final int count;

    public ConnectionsFrame(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("connection count must be >= 1, got " + count);
        }
        this.count = count;
    }

    public int count() {
        return count;
    }

    @Override
    public FrameType type() {
        return FrameType.CONNECTIONS;
    }

    @Override
    public int streamId() {
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionsFrame && ((ConnectionsFrame) o).count == count;
    }

    @Override
    public int hashCode() {
        return count;
    }

    @Override
    public String toString() {
        return "CONNECTIONS(" + count + ")";
    }
}
