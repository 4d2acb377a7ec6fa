package io.courier.shuffle.proxy.protocol;

/**
 * Fixed constants of the block protocol, version 1 (docs/protocol.md). A frame is
 * {@code int length | byte version | byte type | body}, where {@code length} counts the bytes after itself.
 */
public final class Wire {
    /** The only protocol version this code speaks. */
    public static final byte VERSION = 1;
    /** Largest data payload of one DATA frame (64 KiB). */
    public static final int MAX_DATA = 64 * 1024;
    /**
     * Hard limit on a frame's length field: a full data frame plus room for headers; anything larger is rejected,
     * except a {@link FrameType#DATA_RUN}, which has its own limit ({@link #MAX_RUN_FRAME_LENGTH}).
     */
    public static final int MAX_FRAME_LENGTH = MAX_DATA + 1024;
    /** Bytes of the length field. */
    public static final int LENGTH_FIELD = 4;
    /** Bytes of version and type that follow the length field. */
    public static final int PREAMBLE = 2;
    /** Most blocks one DATA_RUN frame carries (each at most {@link #MAX_DATA}). */
    public static final int MAX_RUN_BLOCKS = 16;
    /** Bytes of one block's entry in a DATA_RUN header: stream id and payload length. */
    public static final int RUN_ENTRY = 8;
    /** Bytes of a DATA_RUN's body before its entries: the block count. */
    public static final int RUN_COUNT = 4;
    /** Hard limit on a DATA_RUN frame's length field: a full run of full blocks with their header. */
    public static final int MAX_RUN_FRAME_LENGTH = PREAMBLE + RUN_COUNT + MAX_RUN_BLOCKS * (RUN_ENTRY + MAX_DATA);
    /** Longest identifier (job, map attempt, node) in UTF-8 bytes. */
    public static final int MAX_STRING = 512;
    /** Longest MAC carried in a frame. */
    public static final int MAX_MAC = 64;
    /** Longest error message in UTF-8 bytes (longer ones are truncated when encoded). */
    public static final int MAX_MESSAGE = 1024;

    private Wire() {
    }
}
