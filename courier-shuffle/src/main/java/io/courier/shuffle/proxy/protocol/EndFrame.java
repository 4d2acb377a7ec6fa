package io.courier.shuffle.proxy.protocol;

/** The sender has sent every byte of the stream; the stream is closed on both sides. */
public final class EndFrame implements Frame {
    private final int streamId;

    public EndFrame(int streamId) {
        this.streamId = Checks.streamId(streamId);
    }

    @Override
    public FrameType type() {
        return FrameType.END;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EndFrame && ((EndFrame) o).streamId == streamId;
    }

    @Override
    public int hashCode() {
        return streamId;
    }

    @Override
    public String toString() {
        return "END(stream=" + streamId + ")";
    }
}
