package io.courier.shuffle.proxy.protocol;

import io.courier.shuffle.proxy.testing.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameCodecTest {
    private static final byte[] MAC = new byte[32];

    @Test
    void everyFrameTypeRoundTrips() {
        List<Frame> frames = Arrays.<Frame>asList(
                new HandshakeFrame("node-a:4000"),
                new FetchFrame(7, "job_1_0001", "attempt_1_0001_m_000003_0", 5, 262144, MAC),
                new SegmentHeaderFrame(7, "attempt_1_0001_m_000003_0", 5, 12345L, 23456L, MAC),
                new CreditFrame(7, 65536),
                new EndFrame(7),
                new ErrorFrame(7, ErrorCode.AUTHENTICATION_FAILED, "bad mac"),
                new ErrorFrame(0, ErrorCode.OVERLOADED, "at the cap", 1500),
                new CancelFrame(7),
                new ConnectionsFrame(3));
        List<Object> decoded = Frames.decode(Frames.encode(frames.toArray(new Frame[0])));
        assertEquals(frames, decoded);
    }

    @Test
    void creditFramesAreWrittenAsTheSharedLayoutDescribesThem() {
        // The encoder writes CREDIT frames itself (a fast path); the bytes must stay those of FrameBodies.
        CreditFrame c = new CreditFrame(123456, 131072);
        assertArrayEquals(FrameBodies.encode(c), Frames.encodeBytes(c));
    }

    @Test
    void controlFramesAreWrittenIntoTheChannelsBuffersWithTheSharedLayout() {
        io.netty.buffer.PooledByteBufAllocator direct = new io.netty.buffer.PooledByteBufAllocator(true);
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder());
        ch.config().setAllocator(direct);
        String longMessage = new String(new char[3000]).replace('\0', 'x'); // grows past the first guess
        for (Frame f : Arrays.<Frame>asList(new HandshakeFrame("node-a:4000"),
                new HandshakeFrame("node-a:4000", HandshakeFrame.Role.TASK),
                new FetchFrame(7, "job_1_0001", "attempt_1_0001_m_000003_0", 5, 262144, MAC),
                new RelayFetchFrame(9, "node-b:4000", "job_1_0001", "attempt_1_0001_m_000003_0", 5, 262144, MAC),
                new RouteFrame(9, "c-1"),
                new SegmentHeaderFrame(7, "attempt_1_0001_m_000003_0", 5, 12345L, 23456L, MAC),
                new EndFrame(7), new CancelFrame(7), new ConnectionsFrame(3),
                new ErrorFrame(7, ErrorCode.AUTHENTICATION_FAILED, "bad mac"),
                new ErrorFrame(7, ErrorCode.IO_ERROR, longMessage),
                new ErrorFrame(0, ErrorCode.OVERLOADED, "at the cap", 1500))) {
            assertTrue(ch.writeOutbound(f));
            ByteBuf b = ch.readOutbound();
            try {
                assertTrue(b.isDirect() && b.alloc() == direct, f + ": a buffer of the channel's allocator");
                assertArrayEquals(FrameBodies.encode(f), ByteBufUtil.getBytes(b), f.toString());
            } finally {
                b.release();
            }
        }
        assertNull(ch.readOutbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void dataFrameRoundTripsItsPayload() {
        byte[] payload = new byte[Wire.MAX_DATA];
        new java.util.Random(1).nextBytes(payload);
        List<Object> decoded = Frames.decode(Frames.encode(new DataFrame(3, Unpooled.wrappedBuffer(payload))));
        assertEquals(1, decoded.size());
        DataFrame d = (DataFrame) decoded.get(0);
        assertEquals(3, d.streamId());
        byte[] got = new byte[d.content().readableBytes()];
        d.content().readBytes(got);
        d.release();
        assertArrayEquals(payload, got);
    }

    @Test
    void framesSplitIntoSingleBytesStillDecode() {
        ByteBuf all = Frames.encode(new HandshakeFrame("n:1"), new CreditFrame(2, 10), new EndFrame(2));
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        while (all.isReadable()) {
            dec.writeInbound(all.readRetainedSlice(1));
        }
        all.release();
        assertEquals(new HandshakeFrame("n:1"), dec.readInbound());
        assertEquals(new CreditFrame(2, 10), dec.readInbound());
        assertEquals(new EndFrame(2), dec.readInbound());
        assertTrue(dec.finish() == false);
    }

    @Test
    void oversizedLengthIsRejectedBeforeBuffering() {
        ByteBuf b = Unpooled.buffer().writeInt(Wire.MAX_FRAME_LENGTH + 1).writeByte(Wire.VERSION).writeByte(5);
        ProtocolException e = decodeError(b);
        assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
        assertTrue(e.getMessage().contains("frame length " + (Wire.MAX_FRAME_LENGTH + 1)), e.getMessage());
    }

    @Test
    void wrongVersionIsRejected() {
        ByteBuf b = Frames.encode(new EndFrame(1));
        b.setByte(4, 9);
        ProtocolException e = decodeError(b);
        assertEquals(ErrorCode.UNSUPPORTED_VERSION, e.code());
        assertTrue(e.getMessage().contains("version 9"), e.getMessage());
    }

    @Test
    void unknownTypeIsRejected() {
        ByteBuf b = Frames.encode(new EndFrame(1));
        b.setByte(5, 42);
        ProtocolException e = decodeError(b);
        assertEquals(ErrorCode.UNKNOWN_FRAME_TYPE, e.code());
        assertTrue(e.getMessage().contains("42"), e.getMessage());
    }

    @Test
    void bodyShorterThanItsFieldsIsMalformedAndDoesNotReadTheNextFrame() {
        // A CREDIT frame whose length covers only the stream id, followed by a valid END frame.
        ByteBuf b = Unpooled.buffer().writeInt(2 + 4).writeByte(Wire.VERSION).writeByte(FrameType.CREDIT.code())
                .writeInt(1);
        b.writeBytes(Frames.encode(new EndFrame(1)));
        ProtocolException e = decodeError(b);
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    }

    @Test
    void trailingBytesInABodyAreMalformed() {
        ByteBuf b = Unpooled.buffer().writeInt(2 + 8).writeByte(Wire.VERSION).writeByte(FrameType.END.code())
                .writeInt(1).writeInt(99);
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(b).code());
    }

    @Test
    void anOverloadedErrorCarriesItsRetryAfterAndOnlyThatCodeDoes() {
        byte[] overloaded = FrameBodies.encode(new ErrorFrame(0, ErrorCode.OVERLOADED, "busy", 1000));
        byte[] plain = FrameBodies.encode(new ErrorFrame(0, ErrorCode.IO_ERROR, "busy"));
        assertEquals(plain.length + 4, overloaded.length, "OVERLOADED adds an int32 retry-after, nothing else");
        ErrorFrame back = (ErrorFrame) Frames.decode(Unpooled.wrappedBuffer(overloaded)).get(0);
        assertEquals(1000, back.retryAfterMillis());
        assertEquals(0, ((ErrorFrame) Frames.decode(Unpooled.wrappedBuffer(plain)).get(0)).retryAfterMillis());
        assertThrows(IllegalArgumentException.class, () -> new ErrorFrame(0, ErrorCode.OVERLOADED, "no retry-after"));
        assertThrows(IllegalArgumentException.class, () -> new ErrorFrame(0, ErrorCode.IO_ERROR, "x", 5));
    }

    @Test
    void anOverloadedErrorWithoutOrWithANonPositiveRetryAfterIsMalformed() {
        // The body of an IO_ERROR frame relabelled OVERLOADED: the retry-after is missing.
        byte[] missing = FrameBodies.encode(new ErrorFrame(0, ErrorCode.IO_ERROR, "busy"));
        ByteBuf b = Unpooled.wrappedBuffer(missing);
        b.setShort(4 + Wire.PREAMBLE + 4, ErrorCode.OVERLOADED.code()); // length, preamble, stream id, code
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(b).code());

        byte[] zero = FrameBodies.encode(new ErrorFrame(0, ErrorCode.OVERLOADED, "busy", 1));
        ByteBuf z = Unpooled.wrappedBuffer(zero);
        z.setInt(zero.length - 4, 0);
        ProtocolException e = decodeError(z);
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        assertTrue(e.getMessage().contains("retry-after"), e.getMessage());
    }

    @Test
    void truncatedFrameAtCloseIsReported() {
        ByteBuf full = Frames.encode(new FetchFrame(1, "job_1_0001", "attempt_1_0001_m_000000_0", 0, 1024, MAC));
        ByteBuf part = full.readRetainedSlice(full.readableBytes() - 3);
        full.release();
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        dec.writeInbound(part);
        assertNull(dec.readInbound());
        DecoderException e = assertThrows(DecoderException.class, dec::finish);
        ProtocolException pe = (ProtocolException) e.getCause();
        assertEquals(ErrorCode.MALFORMED_FRAME, pe.code());
        assertTrue(pe.getMessage().contains("truncated"), pe.getMessage());
    }

    @Test
    void afterAnErrorFurtherInputIsDiscarded() {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        ByteBuf bad = Unpooled.buffer().writeInt(-5);
        assertThrows(DecoderException.class, () -> dec.writeInbound(bad));
        dec.writeInbound(Frames.encode(new EndFrame(1)));
        assertNull(dec.readInbound());
        dec.finishAndReleaseAll();
    }

    @Test
    void stringsLongerThanTheLimitAreRejected() {
        byte[] longName = new byte[Wire.MAX_STRING + 1];
        Arrays.fill(longName, (byte) 'a');
        ByteBuf b = Unpooled.buffer().writeInt(0).writeByte(Wire.VERSION).writeByte(FrameType.HANDSHAKE.code())
                .writeShort(longName.length).writeBytes(longName);
        b.setInt(0, b.readableBytes() - 4);
        assertEquals(ErrorCode.MALFORMED_FRAME, decodeError(b).code());
        assertThrows(IllegalArgumentException.class,
                () -> new HandshakeFrame(new String(longName, StandardCharsets.UTF_8)));
    }

    @Test
    void dataFramesLargerThan64KiBCannotBeBuilt() {
        ByteBuf big = Unpooled.buffer(Wire.MAX_DATA + 1).writerIndex(Wire.MAX_DATA + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DataFrame(1, big));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
    }

    @Test
    void preEncodedDataHeaderAndPayloadSplitAcrossReadsDecodeAsTheSameDataFrame() {
        byte[] payload = new byte[1000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        ByteBuf header = FrameEncoder.dataHeader(UnpooledByteBufAllocator.DEFAULT, 7, payload.length);
        // What the sender writes (header, then payload) must equal the encoding of a DataFrame.
        ByteBuf expected = Frames.encode(new DataFrame(7, Unpooled.wrappedBuffer(payload)));
        ByteBuf sent = Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(payload));
        assertEquals(expected, sent);
        expected.release();
        // Delivered in three reads that cut the header and the payload: one frame, the same bytes.
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        dec.writeInbound(sent.readRetainedSlice(6));
        dec.writeInbound(sent.readRetainedSlice(300));
        assertNull(dec.readInbound());
        dec.writeInbound(sent.readRetainedSlice(sent.readableBytes()));
        sent.release();
        DataFrame d = dec.readInbound();
        assertEquals(7, d.streamId());
        assertArrayEquals(payload, ByteBufUtil.getBytes(d.content()));
        d.release();
        assertNull(dec.readInbound());
        dec.finishAndReleaseAll();
    }

    @Test
    void dataHeaderRefusesAPayloadAboveTheMaximum() {
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataHeader(UnpooledByteBufAllocator.DEFAULT, 1, Wire.MAX_DATA + 1));
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataHeader(UnpooledByteBufAllocator.DEFAULT, 0, 10));
    }

    /** A DATA_RUN as the sender writes it: the run header, then the payloads back to back. */
    private static ByteBuf run(int[] streams, byte[][] payloads) {
        int[] lengths = new int[streams.length];
        ByteBuf all = Unpooled.buffer();
        for (int i = 0; i < streams.length; i++) {
            lengths[i] = payloads[i].length;
        }
        ByteBuf header = FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, streams, lengths, streams.length);
        all.writeBytes(header);
        header.release();
        for (byte[] p : payloads) {
            all.writeBytes(p);
        }
        return all;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aDataRunIsHandedOnAsItsBlocksInOrderWhereverTheReadsCutIt() {
        byte[][] payloads = {bytes(Wire.MAX_DATA, 1), bytes(10, 2), bytes(1, 5), bytes(Wire.MAX_DATA, 3),
            bytes(777, 4)};
        int[] streams = {3, 5, 5, 3, 9};
        ByteBuf wire = Unpooled.wrappedBuffer(run(streams, payloads), Frames.encode(new EndFrame(3)));
        assertTrue(wire.getInt(0) > Wire.MAX_FRAME_LENGTH, "the run is longer than any other frame may be");
        for (int cut : new int[] {1, 7, 4096, 65_546, Integer.MAX_VALUE}) {
            EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
            ByteBuf in = wire.duplicate();
            while (in.isReadable()) {
                dec.writeInbound(in.readRetainedSlice(Math.min(cut, in.readableBytes())));
            }
            for (int i = 0; i < streams.length; i++) {
                DataFrame d = dec.readInbound();
                assertEquals(streams[i], d.streamId(), "block " + i + ", reads of " + cut);
                assertArrayEquals(payloads[i], ByteBufUtil.getBytes(d.content()), "block " + i + ", reads of " + cut);
                d.release();
            }
            assertEquals(new EndFrame(3), dec.readInbound(), "framing resumes after the run, reads of " + cut);
            assertTrue(dec.finish() == false);
        }
        wire.release();
    }

    @Test
    void aRunsBlockGoesOnAsSoonAsItHasArrivedNotWhenTheRunHas() {
        ByteBuf wire = run(new int[] {1, 2}, new byte[][] {bytes(100, 1), bytes(Wire.MAX_DATA, 2)});
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        dec.writeInbound(wire.readRetainedSlice(Wire.LENGTH_FIELD + Wire.PREAMBLE + Wire.RUN_COUNT
                + 2 * Wire.RUN_ENTRY + 100));
        DataFrame first = dec.readInbound();
        assertEquals(1, first.streamId());
        first.release();
        assertNull(dec.readInbound(), "the second block has not arrived");
        dec.writeInbound(wire.readRetainedSlice(wire.readableBytes() - 1));
        assertNull(dec.readInbound(), "one byte of the second block is missing");
        dec.writeInbound(wire.readRetainedSlice(1));
        wire.release();
        DataFrame second = dec.readInbound();
        assertEquals(2, second.streamId());
        assertEquals(Wire.MAX_DATA, second.content().readableBytes());
        second.release();
        dec.finishAndReleaseAll();
    }

    @Test
    void malformedDataRunsAreRejectedWithWhatIsWrong() {
        // header fields: count, then (stream, length) per block; the frame's length is computed unless given
        assertRunError(ErrorCode.MALFORMED_FRAME, "0 blocks", -1, 0);
        assertRunError(ErrorCode.MALFORMED_FRAME, "17 blocks", -1, 17);
        assertRunError(ErrorCode.MALFORMED_FRAME, "stream 0", -1, 1, 0, 10);
        assertRunError(ErrorCode.MALFORMED_FRAME, "65537 payload bytes", -1, 1, 1, Wire.MAX_DATA + 1);
        assertRunError(ErrorCode.MALFORMED_FRAME, "-1 payload bytes", -1, 2, 1, 10, 2, -1);
        assertRunError(ErrorCode.MALFORMED_FRAME, "block 2 of 2 is stream 2, 0 payload bytes (1 to 65536)", -1,
                2, 1, 10, 2, 0);
        // the entries announce 20 payload bytes, the length 21
        assertRunError(ErrorCode.MALFORMED_FRAME, "carry 20 payload bytes, its length says 21",
                Wire.PREAMBLE + Wire.RUN_COUNT + 2 * Wire.RUN_ENTRY + 21, 2, 1, 10, 2, 10);
        assertRunError(ErrorCode.MALFORMED_FRAME, "shorter than the header of its 2 blocks",
                Wire.PREAMBLE + Wire.RUN_COUNT + Wire.RUN_ENTRY, 2, 1, 10, 2, 10);
        assertRunError(ErrorCode.FRAME_TOO_LARGE, "frame length " + (Wire.MAX_RUN_FRAME_LENGTH + 1),
                Wire.MAX_RUN_FRAME_LENGTH + 1, 1, 1, 10);
    }

    /** Decodes a DATA_RUN header with the given fields (and no payload): it must fail with {@code code}. */
    private static void assertRunError(ErrorCode code, String message, int length, int... fields) {
        ByteBuf b = Unpooled.buffer().writeInt(0).writeByte(Wire.VERSION).writeByte(FrameType.DATA_RUN.code());
        long payload = 0;
        for (int i = 0; i < fields.length; i++) {
            b.writeInt(fields[i]);
            if (i > 0 && i % 2 == 0) {
                payload += fields[i];
            }
        }
        b.setInt(0, length >= 0 ? length : (int) (b.readableBytes() - Wire.LENGTH_FIELD + payload));
        ProtocolException e = decodeError(b);
        assertEquals(code, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aLongLengthIsTooLargeForEveryTypeButADataRun() {
        ByteBuf b = Unpooled.buffer().writeInt(Wire.MAX_FRAME_LENGTH + 1);
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        dec.writeInbound(b.retainedSlice());
        assertNull(dec.readInbound(), "waits for the type of a length only a DATA_RUN may have");
        b.release();
        DecoderException e = assertThrows(DecoderException.class,
                () -> dec.writeInbound(Unpooled.buffer().writeByte(Wire.VERSION).writeByte(FrameType.CREDIT.code())));
        assertEquals(ErrorCode.FRAME_TOO_LARGE, ((ProtocolException) e.getCause()).code());
        dec.finishAndReleaseAll();
    }

    @Test
    void aConnectionClosedInsideADataRunIsReported() {
        ByteBuf wire = run(new int[] {1, 2}, new byte[][] {bytes(100, 1), bytes(200, 2)});
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        dec.writeInbound(wire.readRetainedSlice(wire.readableBytes() - 50));
        wire.release();
        DataFrame first = dec.readInbound();
        assertEquals(1, first.streamId());
        first.release();
        DecoderException e = assertThrows(DecoderException.class, dec::finish);
        ProtocolException pe = (ProtocolException) e.getCause();
        assertEquals(ErrorCode.MALFORMED_FRAME, pe.code());
        assertTrue(pe.getMessage().contains("inside a DATA_RUN frame (block 2 of 2, 150 of its 200 bytes)"),
                pe.getMessage());
    }

    @Test
    void dataRunHeadersRefuseWhatTheProtocolDoesNotAllow() {
        int[] ids = new int[Wire.MAX_RUN_BLOCKS + 1];
        int[] lengths = new int[Wire.MAX_RUN_BLOCKS + 1];
        Arrays.fill(ids, 1);
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, ids, lengths, 0));
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, ids, lengths, ids.length));
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, ids, lengths, 1)); // empty block
        lengths[0] = 1;
        lengths[1] = Wire.MAX_DATA + 1;
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, ids, lengths, 2));
        ids[0] = 0;
        assertThrows(IllegalArgumentException.class,
                () -> FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, ids, lengths, 1));
    }

    private static ProtocolException decodeError(ByteBuf b) {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        DecoderException e = assertThrows(DecoderException.class, () -> dec.writeInbound(b));
        dec.finishAndReleaseAll();
        assertTrue(e.getCause() instanceof ProtocolException, String.valueOf(e.getCause()));
        return (ProtocolException) e.getCause();
    }
}
