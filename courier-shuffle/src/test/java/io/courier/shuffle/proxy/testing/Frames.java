package io.courier.shuffle.proxy.testing;

import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;

/** Decodes what an {@link EmbeddedChannel} wrote, so tests can look at the frames a handler sent. */
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
}
