package io.courier.shuffle.proxy.protocol;

/** The frame types of the block protocol (docs/protocol.md); the code is the type byte on the wire. */
public enum FrameType {
    HANDSHAKE(1),
    FETCH(2),
    SEGMENT_HEADER(3),
    CREDIT(4),
    DATA(5),
    END(6),
    ERROR(7),
    CANCEL(8),
    CONNECTIONS(9),
    RELAY_FETCH(10),
    ROUTE(11),
    /** Several DATA blocks under one header (docs/protocol.md); the decoder hands them on as {@link DataFrame}s. */
    DATA_RUN(12);

    private final byte code;

    FrameType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /**
     * Types by wire code (unsigned byte). Every received frame is looked up here: {@code values()} would clone the
     * constants array per frame (3 % of the proxies' Java time in the throughput bench's profile).
     */
    private static final FrameType[] BY_CODE = new FrameType[256];

    static {
        for (FrameType t : values()) {
            BY_CODE[t.code & 0xff] = t;
        }
    }

    /** The type for a wire code, or null when the code is unknown. */
    public static FrameType ofCode(byte code) {
        return BY_CODE[code & 0xff];
    }
}
