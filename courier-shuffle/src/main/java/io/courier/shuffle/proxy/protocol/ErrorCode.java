package io.courier.shuffle.proxy.protocol;

/**
 * Error codes carried by ERROR frames and by {@code FetchException}s (docs/protocol.md, "Error codes").
 * A retryable error means the same fetch may succeed later (Hadoop: the map is put back and retried);
 * a non-retryable one means the request itself is wrong.
 */
public enum ErrorCode {
    /** The peer speaks another protocol version; the connection is closed. */
    UNSUPPORTED_VERSION(1, false),
    /** A frame could not be parsed (bad field, length mismatch, truncated at close); the connection is closed. */
    MALFORMED_FRAME(2, false),
    /** A frame's length field exceeds {@link Wire#MAX_FRAME_LENGTH}; the connection is closed. */
    FRAME_TOO_LARGE(3, false),
    /** A frame type the receiver does not know; the connection is closed. */
    UNKNOWN_FRAME_TYPE(4, false),
    /** A frame for a stream id that was never opened on this connection; the frame is dropped. */
    UNKNOWN_STREAM(5, false),
    /** A frame that is valid but not allowed in the current state (e.g. FETCH before HANDSHAKE); connection closed. */
    UNEXPECTED_FRAME(6, false),
    /** A FETCH reused the id of a stream that is still open. */
    DUPLICATE_STREAM(7, false),
    /** The request MAC does not verify with the job's secret. */
    AUTHENTICATION_FAILED(10, false),
    /** The serving node knows no secret for the job. */
    UNKNOWN_JOB(11, false),
    /** The map attempt does not belong to the job named in the request. */
    MAP_OF_OTHER_JOB(12, false),
    /** The reduce partition is outside the map output's index. */
    PARTITION_OUT_OF_RANGE(13, false),
    /** No map output for this attempt on the serving node (Hadoop answers 500; the AM re-runs the map). */
    NO_SUCH_MAP_OUTPUT(14, true),
    /** The map output's index file failed its CRC check or has the wrong size. */
    CORRUPT_INDEX(15, true),
    /**
     * The map output's data or index file is not owned by the user its job's tasks run as (a link to another
     * file, or a file left by someone else); retryable as a missing output is: the AM re-runs the map.
     */
    OUTPUT_NOT_OWNED(16, true),
    /** Reading the map output failed on the serving node. */
    IO_ERROR(20, true),
    /** The connection to the peer was lost mid-stream (raised locally; a relaying proxy forwards it to its task). */
    PEER_LOST(30, true),
    /** The reply MAC in a SEGMENT_HEADER did not verify (local only). */
    REPLY_AUTHENTICATION_FAILED(31, true),
    /** The stream delivered a different number of bytes than its header announced (local only). */
    WRONG_LENGTH(32, true),
    /** The stream was cancelled by its consumer (local only). */
    CANCELLED(33, false),
    /** The proxy is shutting down. */
    SHUTTING_DOWN(34, true),
    /**
     * The connection to the source proxy could not be opened (refused or timed out: the node runs no Courier
     * proxy or is down). Raised by the fetching proxy; a relaying proxy forwards it to its task.
     */
    PEER_UNREACHABLE(35, true),
    /** A task connection from a non-local address while {@code courier.proxy.relay.allow-remote} is false. */
    RELAY_NOT_ALLOWED(36, false),
    /**
     * The proxy already relays for as many tasks as {@code courier.proxy.relay.max-connections} allows (Hadoop's
     * 429 for {@code mapreduce.shuffle.max.connections}): the task connection is closed, and the ERROR frame
     * carries how long the task should wait before it connects again. Nobody is at fault: nothing is counted
     * as a failure.
     */
    OVERLOADED(37, true),
    /**
     * The connection already has {@code courier.proxy.connection.max-open-streams} streams open (each holds a
     * map output file open on the serving node): this FETCH or RELAY_FETCH is refused, the connection stays. A
     * fetching proxy within its credit budget never gets here.
     */
    TOO_MANY_STREAMS(38, true);

    private final short code;
    private final boolean retryable;

    ErrorCode(int code, boolean retryable) {
        this.code = (short) code;
        this.retryable = retryable;
    }

    public short code() {
        return code;
    }

    public boolean retryable() {
        return retryable;
    }

    /** The error for a wire code; unknown codes map to {@link #MALFORMED_FRAME}. */
    public static ErrorCode ofCode(short code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return MALFORMED_FRAME;
    }
}
