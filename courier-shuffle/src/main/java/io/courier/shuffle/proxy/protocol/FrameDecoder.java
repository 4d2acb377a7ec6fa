package io.courier.shuffle.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Reads length-prefixed frames (docs/protocol.md). Any violation (length above {@link Wire#MAX_FRAME_LENGTH},
 * wrong version, unknown type, a body that does not match its length, bytes left at close) raises a
 * {@link ProtocolException}; after that the decoder discards all further input, because framing can no
 * longer be trusted. The connection handler answers with an ERROR frame and closes the connection.
 * One decoder per channel (not sharable). A DATA payload may span several buffers (a composite slice). A
 * DATA_RUN is handed on as the {@link DataFrame}s of its blocks, each as soon as it has arrived.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private boolean failed;
    /** The blocks of the DATA_RUN being received (stream id and length each), and the next one to hand on. */
    private final int[] runStreams = new int[Wire.MAX_RUN_BLOCKS];
    private final int[] runLengths = new int[Wire.MAX_RUN_BLOCKS];
    private int runCount;
    private int runNext;

    public FrameDecoder() {
        // A 64 KiB DATA frame almost never arrives in one socket read; the default (merging) cumulator would
        // copy every received byte once more to make the frame contiguous. Composing the reads instead lets a
        // DATA payload be a slice of the buffers the socket filled, copied by no one.
        setCumulator(COMPOSITE_CUMULATOR);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws ProtocolException {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (runNext < runCount) {
            nextRunBlock(in, out);
            return;
        }
        if (in.readableBytes() < Wire.LENGTH_FIELD) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        // Only a DATA_RUN may be longer than MAX_FRAME_LENGTH: such a length waits for the type byte to be judged.
        boolean mayBeRun = length > Wire.MAX_FRAME_LENGTH && length <= Wire.MAX_RUN_FRAME_LENGTH;
        FrameType type;
        try {
            if (!mayBeRun) {
                FrameBodies.checkLength(length);
            }
            if (in.readableBytes() < Wire.LENGTH_FIELD + Wire.PREAMBLE) {
                return;
            }
            byte code = in.getByte(in.readerIndex() + Wire.LENGTH_FIELD + 1);
            if (mayBeRun && code != FrameType.DATA_RUN.code()) {
                FrameBodies.checkLength(length);
            }
            type = FrameBodies.checkVersionAndType(in.getByte(in.readerIndex() + Wire.LENGTH_FIELD), code);
            if (type == FrameType.DATA_RUN) {
                startRun(in, length);
                return;
            }
            if (in.readableBytes() < Wire.LENGTH_FIELD + length) {
                return;
            }
        } catch (ProtocolException e) {
            throw fail(in, e);
        }
        in.skipBytes(Wire.LENGTH_FIELD + Wire.PREAMBLE);
        // Parse from a slice so that a short body can never read into the next frame.
        ByteBuf body = in.readSlice(length - Wire.PREAMBLE);
        Frame frame;
        if (type == FrameType.DATA) {
            frame = readData(in, body);
        } else {
            try {
                frame = FrameBodies.decodeBody(type, body.nioBuffer());
            } catch (ProtocolException e) {
                throw fail(in, e);
            }
        }
        out.add(frame);
    }

    /**
     * Reads a DATA_RUN's header once its entries are all here and checks it whole (count, each block, the
     * length) before any block goes on; the blocks then follow one by one, each as soon as it has arrived, so
     * no more than one block is ever held for a run, as for DATA frames.
     */
    private void startRun(ByteBuf in, int length) throws ProtocolException {
        int at = in.readerIndex() + Wire.LENGTH_FIELD + Wire.PREAMBLE;
        if (in.readableBytes() < Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT) {
            return;
        }
        int count = in.getInt(at);
        if (count < 1 || count > Wire.MAX_RUN_BLOCKS) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA_RUN frame body is malformed: " + count
                    + " blocks (1 to " + Wire.MAX_RUN_BLOCKS + ")");
        }
        int header = Wire.PREAMBLE + Wire.RUN_COUNT + count * Wire.RUN_ENTRY;
        if (length < header) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA_RUN frame body is malformed: length "
                    + length + " is shorter than the header of its " + count + " blocks");
        }
        if (in.readableBytes() < Wire.LENGTH_FIELD + header) {
            return;
        }
        long payload = 0;
        for (int i = 0; i < count; i++) {
            int entry = at + Wire.RUN_COUNT + i * Wire.RUN_ENTRY;
            int streamId = in.getInt(entry);
            int n = in.getInt(entry + 4);
            // An empty block would be a frame decoded from no bytes, which Netty's decoder loop refuses; a sender
            // never has a reason to send one.
            if (streamId <= 0 || n < 1 || n > Wire.MAX_DATA) {
                throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA_RUN frame body is malformed: block "
                        + (i + 1) + " of " + count + " is stream " + streamId + ", " + n + " payload bytes (1 to "
                        + Wire.MAX_DATA + ")");
            }
            runStreams[i] = streamId;
            runLengths[i] = n;
            payload += n;
        }
        if (header + payload != length) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "DATA_RUN frame body is malformed: its "
                    + count + " blocks carry " + payload + " payload bytes, its length says " + (length - header));
        }
        in.skipBytes(Wire.LENGTH_FIELD + header);
        runCount = count;
        runNext = 0;
    }

    /** The next block of the current run as a DATA frame, once all its bytes are here. */
    private void nextRunBlock(ByteBuf in, List<Object> out) {
        int n = runLengths[runNext];
        if (in.readableBytes() < n) {
            return;
        }
        out.add(new DataFrame(runStreams[runNext], in.readRetainedSlice(n)));
        if (++runNext == runCount) {
            runCount = 0;
            runNext = 0;
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws ProtocolException {
        decode(ctx, in, out);
        if (!failed && runNext < runCount) {
            throw fail(in, ErrorCode.MALFORMED_FRAME, "connection closed inside a DATA_RUN frame (block "
                    + (runNext + 1) + " of " + runCount + ", " + in.readableBytes() + " of its "
                    + runLengths[runNext] + " bytes)");
        }
        if (!failed && in.isReadable()) {
            throw fail(in, ErrorCode.MALFORMED_FRAME, "connection closed inside a frame (" + in.readableBytes()
                    + " bytes of a truncated frame)");
        }
    }

    private ProtocolException fail(ByteBuf in, ErrorCode code, String message) {
        return fail(in, new ProtocolException(code, message));
    }

    private ProtocolException fail(ByteBuf in, ProtocolException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return e;
    }

    /** A DATA frame: the stream id, then the payload as a retained slice of the received buffers (no copy). */
    private DataFrame readData(ByteBuf in, ByteBuf body) throws ProtocolException {
        if (body.readableBytes() < 4) {
            throw fail(in, ErrorCode.MALFORMED_FRAME, "DATA frame body is malformed: " + body.readableBytes()
                    + " bytes, no stream id");
        }
        int streamId = body.readInt();
        int n = body.readableBytes();
        // Checked before the payload is retained, so that a rejected frame holds no buffer.
        if (streamId <= 0 || n > Wire.MAX_DATA) {
            throw fail(in, ErrorCode.MALFORMED_FRAME, "DATA frame body is malformed: stream " + streamId + ", "
                    + n + " payload bytes (at most " + Wire.MAX_DATA + ")");
        }
        return new DataFrame(streamId, body.readRetainedSlice(n));
    }
}
