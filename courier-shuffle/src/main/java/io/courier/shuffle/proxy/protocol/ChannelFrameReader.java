package io.courier.shuffle.proxy.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads frames from a blocking channel, with the checks of {@link FrameDecoder}: the length is checked before
 * anything is buffered, then version, type and an exactly consumed body (docs/protocol.md). DATA payloads are read
 * from the channel straight into direct buffers of a {@link DirectBlockPool} and come as {@link PooledDataFrame}s:
 * on a socket channel that is the kernel's one copy, where a stream-based reader adds a copy through the JDK's
 * temporary buffer and a zero-filled array per block. A small read-ahead ({@link #READ_AHEAD} bytes) takes the
 * control frames of a segment (route, header, end: a few dozen bytes each) and the next DATA header in one read;
 * the part of a payload that came with it is copied from there, the rest is read straight into the block, so at
 * most {@link #READ_AHEAD} bytes of a 64 KiB block take the extra copy.
 *
 * <p>After a {@link ProtocolException} the stream's framing can no longer be trusted: the caller closes it. Used
 * by the reduce task's Netty-free relay client. One reading thread.
 */
public final class ChannelFrameReader {
    /** Bytes read ahead at most: many control frames, or a DATA header and the start of its payload. */
    static final int READ_AHEAD = 2048;

    private final ReadableByteChannel in;
    private final DirectBlockPool blocks;
    /** Bytes read and not yet parsed, between position and limit. */
    private final ByteBuffer head = ByteBuffer.allocateDirect(READ_AHEAD);

    public ChannelFrameReader(ReadableByteChannel in, DirectBlockPool blocks) {
        this.in = in;
        this.blocks = blocks;
        head.limit(0);
    }

    /** Whether bytes beyond the last frame returned were read (a reader handed over to another must have none). */
    public boolean hasBuffered() {
        return head.hasRemaining();
    }

    /**
     * The next frame, or {@code null} if the stream ended cleanly between two frames.
     *
     * @throws ProtocolException the bytes violate the protocol, or the stream ended inside a frame
     * @throws IOException the channel failed
     */
    public Frame read() throws IOException, ProtocolException {
        if (!fill(1)) {
            return null;
        }
        require(4 + Wire.PREAMBLE);
        int length = head.getInt();
        FrameBodies.checkLength(length);
        byte version = head.get();
        byte code = head.get();
        FrameType type = FrameBodies.checkVersionAndType(version, code);
        int bodyLength = length - Wire.PREAMBLE;
        if (type == FrameType.DATA) {
            return readData(bodyLength);
        }
        if (type == FrameType.DATA_RUN) {
            // Runs save headers on the proxies' merged connections; a proxy relays to its tasks block by block.
            throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, "DATA_RUN frame on a task connection");
        }
        ByteBuffer body = ByteBuffer.allocate(bodyLength);
        drainHeadInto(body);
        readFully(body);
        body.flip();
        return FrameBodies.decodeBody(type, body);
    }

    private PooledDataFrame readData(int bodyLength) throws IOException, ProtocolException {
        if (bodyLength < 4) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA frame body is malformed: " + bodyLength
                    + " bytes, no stream id");
        }
        require(4);
        int streamId = head.getInt();
        int n = bodyLength - 4;
        if (streamId <= 0 || n > Wire.MAX_DATA) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA frame body is malformed: stream "
                    + streamId + ", " + n + " payload bytes (at most " + Wire.MAX_DATA + ")");
        }
        ByteBuffer payload = blocks.take(n);
        boolean done = false;
        try {
            payload.limit(n);
            drainHeadInto(payload);
            readFully(payload);
            payload.flip();
            done = true;
            return new PooledDataFrame(streamId, payload);
        } finally {
            if (!done) {
                blocks.give(payload);
            }
        }
    }

    /** Moves as many of the read-ahead's bytes into {@code dst} as it has room for. */
    private void drainHeadInto(ByteBuffer dst) {
        int k = Math.min(head.remaining(), dst.remaining());
        if (k == 0) {
            return;
        }
        int limit = head.limit();
        head.limit(head.position() + k);
        dst.put(head);
        head.limit(limit);
    }

    private void readFully(ByteBuffer dst) throws IOException, ProtocolException {
        while (dst.hasRemaining()) {
            if (in.read(dst) < 0) {
                throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "connection closed inside a frame");
            }
        }
    }

    /** {@link #fill} that treats the end of the stream as a frame cut short. */
    private void require(int k) throws IOException, ProtocolException {
        if (!fill(k)) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "connection closed inside a frame");
        }
    }

    /**
     * Makes at least {@code k} (≤ {@link #READ_AHEAD}) unparsed bytes available, reading as many more as the channel
     * has ready and the read-ahead holds; false if the stream ends first.
     */
    private boolean fill(int k) throws IOException {
        if (head.remaining() >= k) {
            return true;
        }
        head.compact();
        try {
            while (head.position() < k) {
                if (in.read(head) < 0) {
                    return false;
                }
            }
        } finally {
            head.flip();
        }
        return true;
    }
}
