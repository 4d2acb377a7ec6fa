package io.courier.shuffle.proxy.protocol;

import io.courier.shuffle.proxy.testing.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The task's blocking reader against the proxies' Netty codec: it reads exactly what {@link FrameEncoder} writes,
 * and rejects every malformed input with the same error code as {@link FrameDecoder}.
 */
class ChannelFrameReaderTest {
    private static final byte[] MAC = new byte[32];

    private static List<Frame> readAll(byte[] bytes) throws IOException, ProtocolException {
        return readAll(Channels.newChannel(new ByteArrayInputStream(bytes)), new DirectBlockPool(4));
    }

    private static List<Frame> readAll(ReadableByteChannel in, DirectBlockPool pool) throws IOException,
            ProtocolException {
        ChannelFrameReader r = new ChannelFrameReader(in, pool);
        List<Frame> out = new ArrayList<>();
        Frame f;
        while ((f = r.read()) != null) {
            out.add(f);
        }
        return out;
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] a = ByteBufUtil.getBytes(b);
        b.release();
        return a;
    }

    @Test
    void readsEveryFrameTheNettyEncoderWrites() throws Exception {
        List<Frame> control = Arrays.<Frame>asList(
                new HandshakeFrame("node-a:4000"),
                new HandshakeFrame("task-12@host", HandshakeFrame.Role.TASK),
                new FetchFrame(7, "job_1_0001", "attempt_1_0001_m_000003_0", 5, 262144, MAC),
                new RelayFetchFrame(8, "node-b:4000", "job_1_0001", "attempt_1_0001_m_000004_0", 2, 1024, MAC),
                new RouteFrame(8, "node-a:4000->node-b:4000#1"),
                new SegmentHeaderFrame(7, "attempt_1_0001_m_000003_0", 5, 12345L, 23456L, MAC),
                new CreditFrame(7, 65536),
                new EndFrame(7),
                new CancelFrame(7),
                new ConnectionsFrame(3),
                new ErrorFrame(7, ErrorCode.AUTHENTICATION_FAILED, "bad mac \u00e9"),
                new ErrorFrame(0, ErrorCode.OVERLOADED, "at the cap", 1000));
        byte[] payload = new byte[Wire.MAX_DATA];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        List<Frame> all = new ArrayList<>(control);
        all.add(new DataFrame(9, Unpooled.wrappedBuffer(payload)));
        all.add(new DataFrame(9, Unpooled.EMPTY_BUFFER));
        List<Frame> read = readAll(bytes(Frames.encode(all.toArray(new Frame[0]))));
        assertEquals(control, read.subList(0, control.size()));
        PooledDataFrame full = (PooledDataFrame) read.get(control.size());
        assertEquals(9, full.streamId());
        assertArrayEquals(payload, bytes(full.payload()));
        assertTrue(full.payload().isDirect(), "payloads are read into direct buffers");
        assertEquals(0, ((PooledDataFrame) read.get(control.size() + 1)).payload().remaining());
        assertEquals(all.size(), read.size());
    }

    @Test
    void framesSplitIntoOneByteReadsAndFramesSharingAReadAreReadAlike() throws Exception {
        byte[] payload = new byte[1000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7);
        }
        Frame[] frames = {new EndFrame(3), new DataFrame(3, Unpooled.wrappedBuffer(payload)), new CancelFrame(4),
                new EndFrame(5), new RouteFrame(8, "a->b")};
        byte[] bytes = bytes(Frames.encode(frames));
        // A channel that hands out one byte per read, and one that hands out everything at once.
        ReadableByteChannel trickle = new ReadableByteChannel() {
            private int next;

            @Override
            public int read(ByteBuffer dst) {
                if (next == bytes.length) {
                    return -1;
                }
                dst.put(bytes[next++]);
                return 1;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        for (ReadableByteChannel in : Arrays.asList(trickle, Channels.newChannel(new ByteArrayInputStream(bytes)))) {
            List<Frame> read = readAll(in, new DirectBlockPool(1));
            assertEquals(5, read.size());
            assertEquals(new EndFrame(3), read.get(0));
            assertArrayEquals(payload, bytes(((PooledDataFrame) read.get(1)).payload()));
            assertEquals(Arrays.asList(frames).subList(2, 5), read.subList(2, 5));
        }
    }

    @Test
    void blocksGivenBackAreReusedAndWhatWasReadAheadIsKeptForTheNextFrame() throws Exception {
        DirectBlockPool pool = new DirectBlockPool(2);
        byte[] first = new byte[100];
        Arrays.fill(first, (byte) 1);
        byte[] bytes = bytes(Frames.encode(new DataFrame(1, Unpooled.wrappedBuffer(first)),
                new DataFrame(1, Unpooled.wrappedBuffer(new byte[3000])),
                new EndFrame(1)));
        ChannelFrameReader r = new ChannelFrameReader(Channels.newChannel(new ByteArrayInputStream(bytes)), pool);
        PooledDataFrame d = (PooledDataFrame) r.read();
        assertArrayEquals(first, bytes(d.payload()));
        assertTrue(r.hasBuffered(), "the read-ahead holds the start of the next frame");
        pool.give(d.payload());
        d = (PooledDataFrame) r.read();
        assertEquals(3000, d.payload().remaining());
        pool.give(d.payload());
        assertEquals(1, pool.allocated(), "the second block reuses the first one's buffer (a page, 4096 bytes)");
        assertEquals(new EndFrame(1), r.read());
        assertFalse(r.hasBuffered());
        assertNull(r.read());
    }

    @Test
    void aNewBlockIsAsLargeAsItsPayloadInPagesAndAFreeOneTooSmallIsDropped() {
        DirectBlockPool pool = new DirectBlockPool(4);
        ByteBuffer small = pool.take(100);
        assertEquals(4096, small.capacity());
        pool.give(small);
        ByteBuffer big = pool.take(Wire.MAX_DATA);
        assertEquals(Wire.MAX_DATA, big.capacity());
        assertEquals(2, pool.allocated());
        assertEquals(0, pool.free(), "the page was too small for a full block and is not kept");
        pool.give(big);
        assertTrue(pool.take(100) == big, "a larger free buffer serves a small payload");
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    @Test
    void theNettyDecoderReadsWhatFrameBodiesWrites() {
        Frame f = new RelayFetchFrame(8, "node-b:4000", "job_1_0001", "attempt_1_0001_m_000004_0", 2, 1024, MAC);
        List<Object> decoded = Frames.decode(Unpooled.wrappedBuffer(FrameBodies.encode(f)));
        assertEquals(Arrays.<Object>asList(f), decoded);
    }

    @Test
    void aCleanEndBetweenFramesIsNullAndAnEndInsideAFrameIsMalformed() throws Exception {
        byte[] end = bytes(Frames.encode(new EndFrame(1)));
        ChannelFrameReader r = new ChannelFrameReader(Channels.newChannel(new ByteArrayInputStream(end)),
                new DirectBlockPool(0));
        assertEquals(new EndFrame(1), r.read());
        assertNull(r.read());
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> readAll(Arrays.copyOf(end, end.length - 1)));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
    }

    @Test
    void rejectsMalformedInputWithTheSameCodeAsTheNettyDecoder() throws Exception {
        Map<String, ByteBuf> cases = new LinkedHashMap<>();
        cases.put("too large", Unpooled.buffer().writeInt(Wire.MAX_FRAME_LENGTH + 1).writeByte(Wire.VERSION)
                .writeByte(5));
        cases.put("negative length", Unpooled.buffer().writeInt(-5).writeShort(0));
        ByteBuf version = Frames.encode(new EndFrame(1));
        version.setByte(4, 9);
        cases.put("wrong version", version);
        ByteBuf type = Frames.encode(new EndFrame(1));
        type.setByte(5, 42);
        cases.put("unknown type", type);
        cases.put("short body", Unpooled.buffer().writeInt(2 + 4).writeByte(Wire.VERSION)
                .writeByte(FrameType.CREDIT.code()).writeInt(1));
        cases.put("trailing bytes", Unpooled.buffer().writeInt(2 + 8).writeByte(Wire.VERSION)
                .writeByte(FrameType.END.code()).writeInt(1).writeInt(99));
        cases.put("data without stream id", Unpooled.buffer().writeInt(2 + 2).writeByte(Wire.VERSION)
                .writeByte(FrameType.DATA.code()).writeShort(1));
        cases.put("data on stream 0", Unpooled.buffer().writeInt(2 + 4 + 3).writeByte(Wire.VERSION)
                .writeByte(FrameType.DATA.code()).writeInt(0).writeMedium(7));
        ByteBuf bigData = Unpooled.buffer().writeInt(2 + 4 + Wire.MAX_DATA + 1).writeByte(Wire.VERSION)
                .writeByte(FrameType.DATA.code()).writeInt(1).writeZero(Wire.MAX_DATA + 1);
        cases.put("data above 64 KiB", bigData);
        cases.put("bad MAC length", Unpooled.buffer().writeInt(2 + 4 + 2 + 1 + 4 + 8 + 8 + 1)
                .writeByte(Wire.VERSION).writeByte(FrameType.SEGMENT_HEADER.code()).writeInt(1).writeShort(1)
                .writeByte('m').writeInt(0).writeLong(1).writeLong(1).writeByte(200));
        for (Map.Entry<String, ByteBuf> c : cases.entrySet()) {
            byte[] input = bytes(c.getValue());
            ProtocolException blocking = assertThrows(ProtocolException.class, () -> readAll(input), c.getKey());
            EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
            DecoderException netty = assertThrows(DecoderException.class,
                    () -> dec.writeInbound(Unpooled.wrappedBuffer(input)), c.getKey());
            dec.finishAndReleaseAll();
            assertEquals(((ProtocolException) netty.getCause()).code(), blocking.code(), c.getKey());
            assertTrue(blocking.getMessage().length() > 10, c.getKey() + ": " + blocking.getMessage());
        }
    }

    @Test
    void aDataRunIsNotAcceptedOnATaskConnection() {
        // Proxies relay to their tasks block by block: a run there means the peer is not a Courier proxy's relay.
        ByteBuf run = Unpooled.buffer();
        ByteBuf header = FrameEncoder.dataRunHeader(UnpooledByteBufAllocator.DEFAULT, new int[] {1, 2},
                new int[] {3, 4}, 2);
        run.writeBytes(header).writeZero(7);
        header.release();
        byte[] input = bytes(run);
        ProtocolException e = assertThrows(ProtocolException.class, () -> readAll(input));
        assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
        assertTrue(e.getMessage().contains("DATA_RUN"), e.getMessage());
    }
}
