package io.courier.shuffle.proxy.protocol;

/** Fails one stream ({@code streamId > 0}) or the connection ({@code streamId == 0}) with a code and a message. */
public final class ErrorFrame implements Frame {
    private final int streamId;
    private final ErrorCode code;
    private final String message;

    public ErrorFrame(int streamId, ErrorCode code, String message) {
        if (streamId < 0) {
            throw new IllegalArgumentException("stream id must be >= 0, got " + streamId);
        }
        if (code == null) {
            throw new IllegalArgumentException("error frame needs a code");
        }
        this.streamId = streamId;
        this.code = code;
        this.message = message == null ? "" : message;
    }

    @Override
    public FrameType type() {
        return FrameType.ERROR;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    public ErrorCode code() {
        return code;
    }

    public String message() {
        return message;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ErrorFrame)) {
            return false;
        }
        ErrorFrame f = (ErrorFrame) o;
        return f.streamId == streamId && f.code == code && f.message.equals(message);
    }

    @Override
    public int hashCode() {
        return streamId * 31 + code.hashCode();
    }

    @Override
    public String toString() {
        return "ERROR(stream=" + streamId + ", " + code + ", " + message + ")";
    }
}
