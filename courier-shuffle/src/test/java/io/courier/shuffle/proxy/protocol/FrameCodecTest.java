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

    private static ProtocolException decodeError(ByteBuf b) {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        DecoderException e = assertThrows(DecoderException.class, () -> dec.writeInbound(b));
        dec.finishAndReleaseAll();
        assertTrue(e.getCause() instanceof ProtocolException, String.valueOf(e.getCause()));
        return (ProtocolException) e.getCause();
    }
}
