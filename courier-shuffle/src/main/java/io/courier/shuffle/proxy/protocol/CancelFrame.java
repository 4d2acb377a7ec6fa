package io.courier.shuffle.proxy.protocol;

/** The receiver no longer wants the stream; the sender stops it and answers nothing more for it. */
public final class CancelFrame implements Frame {
    private final int streamId;

    public CancelFrame(int streamId) {
        this.streamId = Checks.streamId(streamId);
    }

    @Override
    public FrameType type() {
        return FrameType.CANCEL;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CancelFrame && ((CancelFrame) o).streamId == streamId;
    }

    @Override
    public int hashCode() {
        return streamId;
    }

    @Override
    public String toString() {
        return "CANCEL(stream=" + streamId + ")";
    }
}
