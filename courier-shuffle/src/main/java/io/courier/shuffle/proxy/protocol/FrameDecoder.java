package io.courier.shuffle.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;
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
        if (length < Wire.PREAMBLE || length > Wire.MAX_FRAME_LENGTH) {
            throw fail(in, length < Wire.PREAMBLE ? ErrorCode.MALFORMED_FRAME : ErrorCode.FRAME_TOO_LARGE,
                    "frame length " + length + " outside [" + Wire.PREAMBLE + ", " + Wire.MAX_FRAME_LENGTH + "]");
        }
        if (in.readableBytes() < Wire.LENGTH_FIELD + length) {
            return;
        }
        byte version = in.getByte(in.readerIndex() + Wire.LENGTH_FIELD);
        if (version != Wire.VERSION) {
            throw fail(in, ErrorCode.UNSUPPORTED_VERSION,
                    "protocol version " + version + " is not supported (this node speaks " + Wire.VERSION + ")");
        }
        byte code = in.getByte(in.readerIndex() + Wire.LENGTH_FIELD + 1);
        FrameType type = FrameType.ofCode(code);
        if (type == null) {
            throw fail(in, ErrorCode.UNKNOWN_FRAME_TYPE, "unknown frame type " + code);
        }
        in.skipBytes(Wire.LENGTH_FIELD + Wire.PREAMBLE);
        // Parse from a slice so that a short body can never read into the next frame.
        ByteBuf body = in.readSlice(length - Wire.PREAMBLE);
        Frame frame;
        try {
            frame = readBody(type, body, body.readableBytes());
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw fail(in, ErrorCode.MALFORMED_FRAME, type + " frame body is malformed: " + e.getMessage());
        }
        if (body.isReadable()) {
            ReferenceCountUtil.release(frame);
            throw fail(in, ErrorCode.MALFORMED_FRAME, type + " frame body has " + body.readableBytes()
                    + " trailing bytes");
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
        failed = true;
        in.skipBytes(in.readableBytes());
        return new ProtocolException(code, message);
    }

    private static Frame readBody(FrameType type, ByteBuf in, int bodyLength) {
        switch (type) {
            case HANDSHAKE: {
                String nodeId = readString(in, Wire.MAX_STRING);
                // Version-1 peers send the name only; a task appends its role byte.
                return in.isReadable() ? new HandshakeFrame(nodeId, HandshakeFrame.Role.ofCode(in.readByte()))
                        : new HandshakeFrame(nodeId);
            }
            case RELAY_FETCH:
                return new RelayFetchFrame(in.readInt(), readString(in, Wire.MAX_STRING),
                        readString(in, Wire.MAX_STRING), readString(in, Wire.MAX_STRING), in.readInt(), in.readInt(),
                        readBytes(in));
            case ROUTE:
                return new RouteFrame(in.readInt(), readString(in, Wire.MAX_STRING));
            case FETCH:
                return new FetchFrame(in.readInt(), readString(in, Wire.MAX_STRING), readString(in, Wire.MAX_STRING),
                        in.readInt(), in.readInt(), readBytes(in));
            case SEGMENT_HEADER:
                return new SegmentHeaderFrame(in.readInt(), readString(in, Wire.MAX_STRING), in.readInt(),
                        in.readLong(), in.readLong(), readBytes(in));
            case CREDIT:
                return new CreditFrame(in.readInt(), in.readInt());
            case DATA: {
                int streamId = in.readInt();
                int n = bodyLength - 4;
                if (n > Wire.MAX_DATA) {
                    throw new IllegalArgumentException("data payload of " + n + " bytes exceeds " + Wire.MAX_DATA);
                }
                return new DataFrame(streamId, in.readRetainedSlice(n));
            }
            case END:
                return new EndFrame(in.readInt());
            case CANCEL:
                return new CancelFrame(in.readInt());
            case CONNECTIONS:
                return new ConnectionsFrame(in.readInt());
            case ERROR:
                return new ErrorFrame(in.readInt(), ErrorCode.ofCode(in.readShort()), readString(in, Wire.MAX_MESSAGE));
            default:
                throw new IllegalArgumentException("no body decoder for " + type);
        }
    }

    private static String readString(ByteBuf in, int max) {
        int n = in.readUnsignedShort();
        if (n > max) {
            throw new IllegalArgumentException("string of " + n + " bytes exceeds " + max);
        }
        if (n > in.readableBytes()) {
            throw new IndexOutOfBoundsException("string of " + n + " bytes but only " + in.readableBytes() + " left");
        }
        String s = in.toString(in.readerIndex(), n, StandardCharsets.UTF_8);
        in.skipBytes(n);
        return s;
    }

    private static byte[] readBytes(ByteBuf in) {
        int n = in.readUnsignedByte();
        if (n > Wire.MAX_MAC) {
            throw new IllegalArgumentException("MAC of " + n + " bytes exceeds " + Wire.MAX_MAC);
        }
        byte[] b = new byte[n];
        in.readBytes(b);
        return b;
    }
}
