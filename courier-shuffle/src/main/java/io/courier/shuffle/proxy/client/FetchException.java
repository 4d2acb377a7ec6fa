package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.IOException;

/**
 * A fetch that failed, with the protocol error code. {@link #retryable()} tells the consumer whether to put
 * the map back and try again later (peer lost, I/O error on the serving node) or to give up on the request.
 */
public final class FetchException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public FetchException(ErrorCode code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public boolean retryable() {
        return code.retryable();
    }
}
