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
 * One decoder per channel (not sharable). A DATA payload may span several buffers (a composite slice).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private boolean failed;

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
        if (in.readableBytes() < Wire.LENGTH_FIELD) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        FrameType type;
        try {
            FrameBodies.checkLength(length);
            if (in.readableBytes() < Wire.LENGTH_FIELD + length) {
                return;
            }
            type = FrameBodies.checkVersionAndType(in.getByte(in.readerIndex() + Wire.LENGTH_FIELD),
                    in.getByte(in.readerIndex() + Wire.LENGTH_FIELD + 1));
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

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws ProtocolException {
        decode(ctx, in, out);
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
