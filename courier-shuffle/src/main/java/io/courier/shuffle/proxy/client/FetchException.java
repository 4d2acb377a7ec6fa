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
    private final boolean connectionFailure;

    public FetchException(ErrorCode code, String message) {
        this(code, message, false);
    }

    private FetchException(ErrorCode code, String message, boolean connectionFailure) {
        super(code + ": " + message);
        this.code = code;
        this.connectionFailure = connectionFailure;
    }

    /**
     * The failure of the connection this client itself holds (lost or closed), as opposed to an error the peer
     * reported for the stream. For a task's relay client that means its node's proxy is gone, not the source.
     */
    public static FetchException ofConnection(ErrorCode code, String message) {
        return new FetchException(code, message, true);
    }

    /** True when the client's own connection failed (see {@link #ofConnection}). */
    public boolean isConnectionFailure() {
        return connectionFailure;
    }

    public ErrorCode code() {
        return code;
    }

    public boolean retryable() {
        return code.retryable();
    }
}
