package io.courier.coordinator.wire;

/** Bytes that are not a valid Courier wire message, or a message that cannot be encoded (too large, not in the table). */
public final class WireFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public WireFormatException(String message) {
        super(message);
    }

    public WireFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
