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
    private final int retryAfterMillis;

    public FetchException(ErrorCode code, String message) {
        this(code, message, false, 0);
    }

    private FetchException(ErrorCode code, String message, boolean connectionFailure, int retryAfterMillis) {
        super(code + ": " + message);
        this.code = code;
        this.connectionFailure = connectionFailure;
        this.retryAfterMillis = retryAfterMillis;
    }

    /**
     * The client's connection was refused because the proxy is at its connection cap ({@code OVERLOADED}): wait
     * {@code retryAfterMillis}, then try again; no fault of anyone (Hadoop's 429).
     */
    public static FetchException overloaded(String message, int retryAfterMillis) {
        return new FetchException(ErrorCode.OVERLOADED, message, true, retryAfterMillis);
    }

    /**
     * The failure of the connection this client itself holds (lost or closed), as opposed to an error the peer
     * reported for the stream. For a task's relay client that means its node's proxy is gone, not the source.
     */
    public static FetchException ofConnection(ErrorCode code, String message) {
        return new FetchException(code, message, true, 0);
    }

    /** True when the client's own connection failed (see {@link #ofConnection}). */
    public boolean isConnectionFailure() {
        return connectionFailure;
    }

    /** For {@link #overloaded}: how long to wait before trying again; else 0. */
    public int retryAfterMillis() {
        return retryAfterMillis;
    }

    public ErrorCode code() {
        return code;
    }

    public boolean retryable() {
        return code.retryable();
    }
}
