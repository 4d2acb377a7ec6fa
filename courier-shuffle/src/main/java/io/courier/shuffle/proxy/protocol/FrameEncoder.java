package io.courier.shuffle.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.io.IOException;
import java.util.List;

/**
 * Writes frames as {@code int length | byte version | byte type | body} (docs/protocol.md). Data payloads are
 * not copied: a DATA frame becomes its small header followed by the payload buffer or file region. Control
 * frames are laid out by {@link FrameBodies}.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<Frame> {
    /** A CREDIT frame on the wire: length, version, type, stream id, bytes. */
    private static final int CREDIT_FRAME_BYTES = Wire.LENGTH_FIELD + Wire.PREAMBLE + 4 + 4;
    /** Initial capacity of a control frame's buffer: a SEGMENT_HEADER with a 32-byte MAC fits (it grows if not). */
    private static final int CONTROL_FRAME_GUESS = 128;

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
        if (frame instanceof CreditFrame) {
            // The one control frame sent per half window and stream (about one per two DATA frames): written straight
            // into a pooled buffer, the same bytes as FrameBodies lays out, without its stream objects, heap array
            // and the heap-to-direct copy at flush.
            CreditFrame c = (CreditFrame) frame;
            ByteBuf b = ctx.alloc().buffer(CREDIT_FRAME_BYTES);
            b.writeInt(CREDIT_FRAME_BYTES - Wire.LENGTH_FIELD);
            b.writeByte(Wire.VERSION);
            b.writeByte(FrameType.CREDIT.code());
            b.writeInt(c.streamId());
            b.writeInt(c.bytes());
            out.add(b);
            return;
        }
        out.add(control(ctx.alloc(), frame));
    }

    /**
     * A control frame laid out by {@link FrameBodies} (the one layout the task's blocking client shares) straight
     * into a buffer of the channel's allocator: no heap array per frame and no heap-to-direct copy at flush (a
     * segment costs a SEGMENT_HEADER and an END frame here, and a FETCH on the fetching side).
     */
    static ByteBuf control(ByteBufAllocator alloc, Frame frame) {
        ByteBuf b = alloc.buffer(CONTROL_FRAME_GUESS);
        boolean done = false;
        try {
            int start = b.writerIndex();
            b.writeInt(0); // the length, known once the body is written
            FrameBodies.writeAfterLength(frame, new ByteBufOutputStream(b));
            b.setInt(start, b.writerIndex() - start - Wire.LENGTH_FIELD);
            done = true;
            return b;
        } catch (IOException e) {
            throw new IllegalStateException("writing " + frame.type() + " frame to a buffer failed", e);
        } finally {
            if (!done) {
                b.release();
            }
        }
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
        checkBlock("a data frame", streamId, length, 0);
        ByteBuf h = alloc.buffer(Wire.LENGTH_FIELD + Wire.PREAMBLE + 4);
        h.writeInt(Wire.PREAMBLE + 4 + length);
        h.writeByte(Wire.VERSION);
        h.writeByte(FrameType.DATA.code());
        h.writeInt(streamId);
        return h;
    }

    /**
     * The encoded header of a DATA_RUN frame for the first {@code count} blocks of {@code streamIds} and
     * {@code lengths}: the sender writes it and then the blocks' payloads, in the same order, with nothing in
     * between. One header instead of one per block is what a run saves (docs/protocol.md).
     */
    public static ByteBuf dataRunHeader(ByteBufAllocator alloc, int[] streamIds, int[] lengths, int count) {
        if (count < 1 || count > Wire.MAX_RUN_BLOCKS) {
            throw new IllegalArgumentException("a data run carries 1 to " + Wire.MAX_RUN_BLOCKS + " blocks, not "
                    + count);
        }
        int payload = 0;
        for (int i = 0; i < count; i++) {
            // An empty DATA frame is allowed; an empty block in a run is not (docs/protocol.md).
            checkBlock("a block in a data run", streamIds[i], lengths[i], 1);
            payload += lengths[i];
        }
        int entries = count * Wire.RUN_ENTRY;
        ByteBuf h = alloc.buffer(Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT + entries);
        h.writeInt(Wire.PREAMBLE + Wire.RUN_COUNT + entries + payload);
        h.writeByte(Wire.VERSION);
        h.writeByte(FrameType.DATA_RUN.code());
        h.writeInt(count);
        for (int i = 0; i < count; i++) {
            h.writeInt(streamIds[i]);
            h.writeInt(lengths[i]);
        }
        return h;
    }

    /** The stream id and payload length of one block a sender is about to announce: what a receiver would accept. */
    private static void checkBlock(String what, int streamId, int length, int min) {
        Checks.streamId(streamId);
        if (length < min || length > Wire.MAX_DATA) {
            throw new IllegalArgumentException(what + " of stream " + streamId + " cannot carry " + length
                    + " bytes (" + min + " to " + Wire.MAX_DATA + ")");
        }
    }
}
