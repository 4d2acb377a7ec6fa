package io.courier.shuffle.proxy.source;

import io.courier.shuffle.proxy.protocol.ErrorCode;

/** A fetch that cannot be served, with the error code the serving proxy answers. */
public final class SegmentException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public SegmentException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
