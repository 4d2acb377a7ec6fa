package io.courier.shuffle.proxy.testing;

import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Frames as bytes and back through the proxies' Netty codec, and what an {@link EmbeddedChannel} wrote, so tests can
 * look at the frames a handler sent.
 */
public final class Frames {
    private Frames() {
    }

    /** Every frame written on {@code ch} since the last call (payloads of DATA frames are retained: release them). */
    public static List<Object> written(EmbeddedChannel ch) {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        Object o;
        while ((o = ch.readOutbound()) != null) {
            if (o instanceof ByteBuf) {
                dec.writeInbound(o);
            } else {
                ReferenceCountUtil.release(o);
                throw new AssertionError("unexpected outbound message " + o);
            }
        }
        List<Object> out = new ArrayList<>();
        while ((o = dec.readInbound()) != null) {
            out.add(o);
        }
        dec.finishAndReleaseAll();
        return out;
    }

    /** The bytes {@link FrameEncoder} writes for {@code frames}, in order. */
    public static ByteBuf encode(Frame... frames) {
        EmbeddedChannel enc = new EmbeddedChannel(new FrameEncoder());
        for (Frame f : frames) {
            enc.writeOutbound(f);
        }
        ByteBuf all = Unpooled.buffer();
        ByteBuf b;
        while ((b = enc.readOutbound()) != null) {
            all.writeBytes(b);
            b.release();
        }
        enc.finishAndReleaseAll();
        return all;
    }

    /** As {@link #encode}, as an array. */
    public static byte[] encodeBytes(Frame... frames) {
        ByteBuf all = encode(frames);
        byte[] out = new byte[all.readableBytes()];
        all.readBytes(out);
        all.release();
        return out;
    }

    /** Every frame {@link FrameDecoder} reads from {@code bytes} (DATA payloads are retained: release them). */
    public static List<Object> decode(ByteBuf bytes) {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        dec.writeInbound(bytes);
        List<Object> out = new ArrayList<>();
        Object o;
        while ((o = dec.readInbound()) != null) {
            out.add(o);
        }
        dec.finishAndReleaseAll();
        return out;
    }
}
