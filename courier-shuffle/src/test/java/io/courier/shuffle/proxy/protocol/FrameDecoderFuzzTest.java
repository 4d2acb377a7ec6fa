package io.courier.shuffle.proxy.protocol;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzes {@link FrameDecoder} with arbitrary bytes cut into arbitrary socket reads. Whatever arrives, the decoder
 * either yields frames or raises exactly one {@link ProtocolException} (wrapped by Netty in a
 * {@link DecoderException}), never another exception; it never holds more than one frame's worth of undecoded
 * bytes (a length field outside the limit is refused before its body is buffered); every frame it yields can be
 * encoded again and decodes to an equal frame (a relay forwards what it decoded). Seeds:
 * {@code src/test/resources/io/courier/shuffle/proxy/protocol/FrameDecoderFuzzTestInputs/}. In {@code mvn test}
 * this runs the seeds only (Jazzer's regression mode); docs/security.md gives the command that fuzzes.
 */
class FrameDecoderFuzzTest {
    /** Undecoded bytes a healthy decoder may hold: one length field and one maximal body, minus one byte. */
    private static final int MAX_PENDING = Wire.LENGTH_FIELD + Wire.MAX_FRAME_LENGTH - 1;

    @FuzzTest(maxDuration = "5m")
    void arbitraryBytesGiveFramesOrOneProtocolError(FuzzedDataProvider data) {
        List<byte[]> reads = new ArrayList<>();
        while (data.remainingBytes() > 0) {
            int n = data.consumeInt(1, 4096);
            reads.add(data.consumeBytes(n));
        }
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder());
        FramingModel model = new FramingModel();
        ProtocolException error = null;
        List<Frame> frames = new ArrayList<>();
        try {
            for (byte[] read : reads) {
                model.feed(read);
                try {
                    ch.writeInbound(Unpooled.wrappedBuffer(read));
                } catch (DecoderException e) {
                    error = protocolError(e);
                    break;
                }
                drain(ch, frames);
                // Not failed: every length field seen so far was in range, and what is held is less than a frame.
                assertFalse(model.outOfRange, "a length field outside the limit was accepted");
                assertTrue(model.pending() <= MAX_PENDING, "decoder holds " + model.pending() + " bytes");
            }
            if (error == null) {
                try {
                    ch.finish();
                } catch (DecoderException e) {
                    error = protocolError(e);
                }
            }
            drain(ch, frames);
            if (error == null) {
                assertEquals(0, model.pending(), "the decoder accepted a connection that closed inside a frame");
            }
            for (Frame f : frames) {
                assertReencodes(f);
            }
        } finally {
            for (Frame f : frames) {
                ReferenceCountUtil.release(f);
            }
            ch.finishAndReleaseAll();
        }
    }

    private static ProtocolException protocolError(DecoderException e) {
        if (!(e.getCause() instanceof ProtocolException)) {
            fail("decoder failed with something other than a ProtocolException", e);
        }
        return (ProtocolException) e.getCause();
    }

    private static void drain(EmbeddedChannel ch, List<Frame> into) {
        Object o;
        while ((o = ch.readInbound()) != null) {
            into.add((Frame) o);
        }
    }

    /** Encodes {@code f} and decodes the bytes again: the same frame must come out. */
    private static void assertReencodes(Frame f) {
        EmbeddedChannel enc = new EmbeddedChannel(new FrameEncoder());
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        try {
            ReferenceCountUtil.retain(f);
            enc.writeOutbound(f);
            ByteBuf b;
            while ((b = enc.readOutbound()) != null) {
                dec.writeInbound(b);
            }
            Object again = dec.readInbound();
            try {
                if (f instanceof DataFrame) {
                    assertTrue(again instanceof DataFrame, "DATA decoded as " + again);
                    assertEquals(f.streamId(), ((DataFrame) again).streamId());
                    assertEquals(((DataFrame) f).content(), ((DataFrame) again).content());
                } else if (f instanceof ErrorFrame) {
                    // The encoder may shorten a message (replacement characters take 3 bytes): code and stream hold.
                    ErrorFrame e = (ErrorFrame) f;
                    assertEquals(e.streamId(), ((ErrorFrame) again).streamId());
                    assertEquals(e.code(), ((ErrorFrame) again).code());
                } else {
                    assertEquals(f, again);
                }
            } finally {
                ReferenceCountUtil.release(again);
            }
            assertNull(dec.readInbound(), "one frame in, one frame out");
        } finally {
            enc.finishAndReleaseAll();
            dec.finishAndReleaseAll();
        }
    }

    /**
     * The framing as docs/protocol.md defines it, independent of the decoder: walks the length fields and says
     * how many bytes belong to an unfinished frame and whether a length outside {@code [PREAMBLE, MAX]} was seen.
     */
    private static final class FramingModel {
        /** Bytes of the current, unfinished frame (at most a length field and a maximal body are kept). */
        private final byte[] head = new byte[Wire.LENGTH_FIELD];
        private int headBytes;
        private long bodyLeft = -1;
        private long pending;
        boolean outOfRange;

        void feed(byte[] read) {
            for (int i = 0; i < read.length && !outOfRange; ) {
                if (bodyLeft < 0) {
                    head[headBytes++] = read[i++];
                    pending++;
                    if (headBytes == Wire.LENGTH_FIELD) {
                        int length = ((head[0] & 0xff) << 24) | ((head[1] & 0xff) << 16) | ((head[2] & 0xff) << 8)
                                | (head[3] & 0xff);
                        outOfRange = length < Wire.PREAMBLE || length > Wire.MAX_FRAME_LENGTH;
                        bodyLeft = length;
                        headBytes = 0;
                    }
                } else {
                    int n = (int) Math.min(bodyLeft, read.length - i);
                    i += n;
                    pending += n;
                    bodyLeft -= n;
                }
                if (bodyLeft == 0) {
                    bodyLeft = -1;
                    pending = 0;
                }
            }
        }

        long pending() {
            return pending;
        }
    }
}
