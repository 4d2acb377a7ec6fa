package io.courier.shuffle.proxy.protocol;

/** Grants {@code bytes} more window to a stream: the sender may send that many more data bytes on it. */
public final class CreditFrame implements Frame {
    private final int streamId;
    private final int bytes;

    public CreditFrame(int streamId, int bytes) {
        this.streamId = Checks.streamId(streamId);
        if (bytes <= 0) {
            throw new IllegalArgumentException("credit must be > 0, got " + bytes + " for stream " + streamId);
        }
        this.bytes = bytes;
    }

    @Override
    public FrameType type() {
        return FrameType.CREDIT;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    public int bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CreditFrame && ((CreditFrame) o).streamId == streamId && ((CreditFrame) o).bytes == bytes;
    }

    @Override
    public int hashCode() {
        return streamId * 31 + bytes;
    }

    @Override
    public String toString() {
        return "CREDIT(stream=" + streamId + ", " + bytes + ")";
    }
}
