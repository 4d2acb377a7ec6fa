package io.courier.shuffle.proxy.protocol;

/** A violation of the block protocol detected while decoding or handling frames; carries the error code sent back. */
public final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ProtocolException(ErrorCode code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
