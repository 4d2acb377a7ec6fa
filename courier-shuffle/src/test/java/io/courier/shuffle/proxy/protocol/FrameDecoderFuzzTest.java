package io.courier.shuffle.proxy.protocol;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
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
 * bytes, or one block's of a DATA_RUN (a length field outside the limit is refused before its body is buffered);
 * every frame it yields can be
 * encoded again and decodes to an equal frame (a relay forwards what it decoded). Seeds:
 * {@code src/test/resources/io/courier/shuffle/proxy/protocol/FrameDecoderFuzzTestInputs/}. In {@code mvn test}
 * this runs the seeds only (Jazzer's regression mode); docs/security.md gives the command that fuzzes.
 */
class FrameDecoderFuzzTest {
    /** Undecoded bytes a healthy decoder may hold: a length field and a maximal body (or run block), minus a byte. */
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
     * how many undecoded bytes a decoder may hold and whether a length outside the limits (or a DATA_RUN header a
     * decoder must refuse) was seen: {@code [PREAMBLE,
     * MAX_FRAME_LENGTH]}, or up to {@code MAX_RUN_FRAME_LENGTH} for a DATA_RUN, whose header and each of whose
     * blocks count as a frame of their own here (the decoder hands each block on as it completes).
     */
    private static final class FramingModel {
        /** The current frame's first bytes: length, version, type and, for a run, its count and entries. */
        private final byte[] head = new byte[Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT
                + Wire.MAX_RUN_BLOCKS * Wire.RUN_ENTRY];
        private final ByteBuffer headView = ByteBuffer.wrap(head);
        private int headBytes;
        /** Bytes of the head still to come before the frame's body (or the run's first block) starts. */
        private int headWanted = Wire.LENGTH_FIELD;
        private long bodyLeft = -1;
        private int length;
        /** The run's block lengths still to come (after the current one), or null outside a run. */
        private ArrayDeque<Integer> runBlocks;
        private long pending;
        boolean outOfRange;

        void feed(byte[] read) {
            for (int i = 0; i < read.length && !outOfRange; ) {
                if (bodyLeft < 0) {
                    head[headBytes++] = read[i++];
                    pending++;
                    headWanted--;
                    if (headWanted == 0) {
                        afterHead();
                    }
                } else {
                    int n = (int) Math.min(bodyLeft, read.length - i);
                    i += n;
                    pending += n;
                    bodyLeft -= n;
                }
                while (bodyLeft == 0) {
                    pending = 0;
                    Integer next = runBlocks == null ? null : runBlocks.pollFirst();
                    if (next == null) {
                        runBlocks = null;
                        bodyLeft = -1;
                        headBytes = 0;
                        headWanted = Wire.LENGTH_FIELD;
                    } else {
                        bodyLeft = next;
                    }
                }
            }
        }

        /** Judges the head read so far; asks for more of it, or starts the body. */
        private void afterHead() {
            if (headBytes == Wire.LENGTH_FIELD) {
                length = headView.getInt(0);
                outOfRange = length < Wire.PREAMBLE || length > Wire.MAX_RUN_FRAME_LENGTH;
                headWanted = Wire.PREAMBLE;
                return;
            }
            boolean run = head[Wire.LENGTH_FIELD] == Wire.VERSION
                    && head[Wire.LENGTH_FIELD + 1] == FrameType.DATA_RUN.code();
            if (!run) {
                outOfRange = length > Wire.MAX_FRAME_LENGTH;
                bodyLeft = length - Wire.PREAMBLE;
                return;
            }
            if (headBytes < Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT) {
                headWanted = Wire.RUN_COUNT;
                return;
            }
            int count = headView.getInt(Wire.LENGTH_FIELD + Wire.PREAMBLE);
            if (count < 1 || count > Wire.MAX_RUN_BLOCKS) {
                outOfRange = true; // a valid decoder has refused this run by now
            } else if (headBytes == Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT) {
                headWanted = count * Wire.RUN_ENTRY;
                outOfRange = length < Wire.PREAMBLE + Wire.RUN_COUNT + count * Wire.RUN_ENTRY;
            } else {
                runBlocks = new ArrayDeque<>();
                long sum = Wire.PREAMBLE + Wire.RUN_COUNT + (long) count * Wire.RUN_ENTRY;
                for (int b = 0; b < count; b++) {
                    int at = Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT + b * Wire.RUN_ENTRY;
                    int block = headView.getInt(at + 4);
                    outOfRange |= headView.getInt(at) <= 0 || block < 1 || block > Wire.MAX_DATA;
                    runBlocks.add(block);
                    sum += block;
                }
                // A valid decoder has refused a run whose entries or length are wrong by now.
                outOfRange |= sum != length;
                pending = 0; // the decoder has consumed the run's header
                bodyLeft = runBlocks.pollFirst();
            }
        }

        long pending() {
            return pending;
        }
    }
}
