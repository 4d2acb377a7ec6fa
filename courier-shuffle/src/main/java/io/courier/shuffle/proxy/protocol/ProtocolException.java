package io.courier.shuffle.proxy.protocol;

/**
 * A violation of the block protocol detected while decoding or handling frames, or a refusal (such as
 * {@link ErrorCode#OVERLOADED}); carries the error code, and for OVERLOADED the retry-after, sent back.
 */
public final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final int retryAfterMillis;

    public ProtocolException(ErrorCode code, String message) {
        this(code, message, 0);
    }

    /** @param retryAfterMillis at least 1 for {@link ErrorCode#OVERLOADED}, else 0 (see {@link ErrorFrame}) */
    public ProtocolException(ErrorCode code, String message, int retryAfterMillis) {
        super(code + ": " + message);
        // Checked here, not when the answer is built in an exception handler that could not report it.
        ErrorFrame.checkRetryAfter(code, retryAfterMillis);
        this.code = code;
        this.retryAfterMillis = retryAfterMillis;
    }

    public ErrorCode code() {
        return code;
    }

    /** The ERROR frame that answers this exception on {@code streamId} (0: the connection). */
    public ErrorFrame toErrorFrame(int streamId) {
        return new ErrorFrame(streamId, code, getMessage(), retryAfterMillis);
    }
}
