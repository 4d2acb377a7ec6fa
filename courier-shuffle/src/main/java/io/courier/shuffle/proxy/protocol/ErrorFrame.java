package io.courier.shuffle.proxy.protocol;

/**
 * Fails one stream ({@code streamId > 0}) or the connection ({@code streamId == 0}) with a code and a message.
 * An {@link ErrorCode#OVERLOADED} error also says after how many milliseconds the refused party may try again
 * (on the wire only for that code: docs/protocol.md).
 */
public final class ErrorFrame implements Frame {
    private final int streamId;
    private final ErrorCode code;
    private final String message;
    private final int retryAfterMillis;

    /** An error without a retry-after (any code but {@link ErrorCode#OVERLOADED}). */
    public ErrorFrame(int streamId, ErrorCode code, String message) {
        this(streamId, code, message, 0);
    }

    /** @param retryAfterMillis at least 1 for {@link ErrorCode#OVERLOADED}, else 0 */
    public ErrorFrame(int streamId, ErrorCode code, String message, int retryAfterMillis) {
        checkRetryAfter(code, retryAfterMillis);
        if (streamId < 0) {
            throw new IllegalArgumentException("stream id must be >= 0, got " + streamId);
        }
        if (code == null) {
            throw new IllegalArgumentException("error frame needs a code");
        }
        this.streamId = streamId;
        this.code = code;
        this.message = message == null ? "" : message;
        this.retryAfterMillis = retryAfterMillis;
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

    /**
     * The rule for a retry-after: at least 1 ms with {@link ErrorCode#OVERLOADED}, 0 with any other code.
     *
     * @throws IllegalArgumentException otherwise
     */
    static void checkRetryAfter(ErrorCode code, int retryAfterMillis) {
        if (code == ErrorCode.OVERLOADED ? retryAfterMillis < 1 : retryAfterMillis != 0) {
            throw new IllegalArgumentException("retry-after must be >= 1 ms for OVERLOADED and 0 for other codes, got "
                    + retryAfterMillis + " for " + code);
        }
    }

    /** How long to wait before trying again (OVERLOADED only; 0 for every other code). */
    public int retryAfterMillis() {
        return retryAfterMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ErrorFrame)) {
            return false;
        }
        ErrorFrame f = (ErrorFrame) o;
        return f.streamId == streamId && f.code == code && f.message.equals(message)
                && f.retryAfterMillis == retryAfterMillis;
    }

    @Override
    public int hashCode() {
        return streamId * 31 + code.hashCode();
    }

    @Override
    public String toString() {
        return "ERROR(stream=" + streamId + ", " + code + ", " + message
                + (code == ErrorCode.OVERLOADED ? ", retry after " + retryAfterMillis + " ms" : "") + ")";
    }
}
