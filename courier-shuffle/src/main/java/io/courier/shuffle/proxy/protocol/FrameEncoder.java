package io.courier.shuffle.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes frames as {@code int length | byte version | byte type | body} (docs/protocol.md). Data payloads are
 * not copied: a DATA frame becomes its small header followed by the payload buffer or file region.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<Frame> {
    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
        if (frame instanceof DataFrame) {
            DataFrame d = (DataFrame) frame;
            out.add(dataHeader(ctx, d.streamId(), d.content().readableBytes()));
            out.add(d.content().retain());
            return;
        }
        if (frame instanceof FileDataFrame) {
            FileDataFrame d = (FileDataFrame) frame;
            out.add(dataHeader(ctx, d.streamId(), (int) d.region().count()));
            // The region's reference passes to the outbound buffer, which releases it once transferred.
            out.add(d.region());
            return;
        }
        ByteBuf buf = ctx.alloc().buffer(64);
        buf.writeInt(0);
        buf.writeByte(Wire.VERSION);
        buf.writeByte(frame.type().code());
        writeBody(frame, buf);
        buf.setInt(0, buf.writerIndex() - Wire.LENGTH_FIELD);
        out.add(buf);
    }

    private static ByteBuf dataHeader(ChannelHandlerContext ctx, int streamId, int length) {
        return dataHeader(ctx.alloc(), streamId, length);
    }

    /**
     * The encoded header of a DATA frame carrying {@code length} payload bytes: a sender that writes the header
     * and then the payload itself (a buffer or file region, which this encoder passes through) sends the same
     * bytes as for a {@link DataFrame}, without a frame object and encoder pass per block.
     */
    public static ByteBuf dataHeader(ByteBufAllocator alloc, int streamId, int length) {
        Checks.streamId(streamId);
        if (length < 0 || length > Wire.MAX_DATA) {
            throw new IllegalArgumentException("data frame of stream " + streamId + " cannot carry " + length
                    + " bytes (at most " + Wire.MAX_DATA + ")");
        }
        ByteBuf h = alloc.buffer(Wire.LENGTH_FIELD + Wire.PREAMBLE + 4);
        h.writeInt(Wire.PREAMBLE + 4 + length);
        h.writeByte(Wire.VERSION);
        h.writeByte(FrameType.DATA.code());
        h.writeInt(streamId);
        return h;
    }

    private static void writeBody(Frame frame, ByteBuf buf) {
        switch (frame.type()) {
            case HANDSHAKE: {
                HandshakeFrame h = (HandshakeFrame) frame;
                writeString(buf, h.nodeId());
                if (h.role() != HandshakeFrame.Role.PEER) {
                    buf.writeByte(h.role().code());
                }
                break;
            }
            case RELAY_FETCH: {
                RelayFetchFrame f = (RelayFetchFrame) frame;
                buf.writeInt(f.streamId());
                writeString(buf, f.source());
                writeString(buf, f.job());
                writeString(buf, f.mapAttempt());
                buf.writeInt(f.partition());
                buf.writeInt(f.initialCredit());
                writeBytes(buf, f.mac());
                break;
            }
            case ROUTE:
                buf.writeInt(frame.streamId());
                writeString(buf, ((RouteFrame) frame).connection());
                break;
            case FETCH: {
                FetchFrame f = (FetchFrame) frame;
                buf.writeInt(f.streamId());
                writeString(buf, f.job());
                writeString(buf, f.mapAttempt());
                buf.writeInt(f.partition());
                buf.writeInt(f.initialCredit());
                writeBytes(buf, f.mac());
                break;
            }
            case SEGMENT_HEADER: {
                SegmentHeaderFrame h = (SegmentHeaderFrame) frame;
                buf.writeInt(h.streamId());
                writeString(buf, h.mapAttempt());
                buf.writeInt(h.partition());
                buf.writeLong(h.compressedLength());
                buf.writeLong(h.rawLength());
                writeBytes(buf, h.replyMac());
                break;
            }
            case CREDIT:
                buf.writeInt(frame.streamId());
                buf.writeInt(((CreditFrame) frame).bytes());
                break;
            case CONNECTIONS:
                buf.writeInt(((ConnectionsFrame) frame).count());
                break;
            case END:
            case CANCEL:
                buf.writeInt(frame.streamId());
                break;
            case ERROR: {
                ErrorFrame e = (ErrorFrame) frame;
                buf.writeInt(e.streamId());
                buf.writeShort(e.code().code());
                writeString(buf, truncate(e.message()));
                break;
            }
            default:
                throw new IllegalArgumentException("frame type " + frame.type() + " has no body encoder: " + frame);
        }
    }

    private static String truncate(String message) {
        String m = message;
        while (m.getBytes(StandardCharsets.UTF_8).length > Wire.MAX_MESSAGE) {
            m = m.substring(0, m.length() / 2);
        }
        return m;
    }

    private static void writeString(ByteBuf buf, String s) {
        int lengthAt = buf.writerIndex();
        buf.writeShort(0);
        int n = ByteBufUtil.writeUtf8(buf, s);
        buf.setShort(lengthAt, n);
    }

    private static void writeBytes(ByteBuf buf, byte[] b) {
        buf.writeByte(b.length);
        buf.writeBytes(b);
    }
}
