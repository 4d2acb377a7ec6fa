package io.courier.shuffle.proxy.server;

import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.FrameType;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.schedule.FlowTally;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.source.SegmentSource;
import io.courier.shuffle.proxy.testing.Frames;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The serving side on Netty's EmbeddedChannel: malformed input, authentication, and the bytes it serves. */
class ServerConnectionHandlerTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String OTHER_JOB = "job_1700000000000_0002";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final String OTHER_MAP = "attempt_1700000000000_0002_m_000000_0";
    private static final byte[] SECRET = "secret-of-job-1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER_SECRET = "secret-of-job-2".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;
    private HadoopMapOutputs outputs;
    private InMemorySecrets secrets;
    private ServerCounters counters;
    private SendScheduler scheduler;
    private MapOutputFiles files;

    @BeforeEach
    void setUp() throws Exception {
        outputs = new HadoopMapOutputs(dir);
        files = outputs.write(JOB, MAP, 4, 400, 300, 42);
        outputs.write(OTHER_JOB, OTHER_MAP, 4, 10, 100, 43);
        secrets = new InMemorySecrets();
        secrets.put(JOB, SECRET);
        secrets.put(OTHER_JOB, OTHER_SECRET);
        counters = new ServerCounters();
        scheduler = new SendScheduler("server:1", SelectAndSplit.UNLIMITED, 1 << 20);
    }

    private EmbeddedChannel server() {
        return new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(), new ServerConnectionHandler("server:1",
                secrets, new SegmentSource(outputs.locator()), scheduler, counters, SendSettings.of(1 << 20, false)));
    }

    private static ByteBuf raw(int length, int version, int type, byte[] body) {
        return Unpooled.buffer().writeInt(length).writeByte(version).writeByte(type).writeBytes(body);
    }

    private static EmbeddedChannel handshaken(EmbeddedChannel ch) {
        ch.writeInbound(new HandshakeFrame("client:2"));
        return ch;
    }

    private static void send(EmbeddedChannel ch, Frame f) {
        EmbeddedChannel enc = new EmbeddedChannel(new FrameEncoder());
        enc.writeOutbound(f);
        ByteBuf b;
        while ((b = enc.readOutbound()) != null) {
            ch.writeInbound(b);
        }
    }

    private static ErrorFrame onlyError(List<Object> frames) {
        assertEquals(1, frames.size(), frames.toString());
        return (ErrorFrame) frames.get(0);
    }

    private void assertConnectionError(EmbeddedChannel ch, ErrorCode code) {
        List<Object> out = Frames.written(ch);
        ErrorFrame e = onlyError(out);
        assertEquals(0, e.streamId());
        assertEquals(code, e.code());
        assertFalse(ch.isActive(), "connection must be closed after " + code);
        assertEquals(1, counters.protocolErrors());
    }

    @Test
    void oversizedLengthClosesTheConnectionWithAnError() {
        EmbeddedChannel ch = server();
        ch.writeInbound(raw(Wire.MAX_FRAME_LENGTH + 1, Wire.VERSION, FrameType.DATA.code(), new byte[16]));
        assertConnectionError(ch, ErrorCode.FRAME_TOO_LARGE);
    }

    @Test
    void wrongVersionClosesTheConnectionWithAnError() {
        EmbeddedChannel ch = server();
        ch.writeInbound(raw(2 + 5, 2, FrameType.HANDSHAKE.code(), new byte[] {0, 3, 'a', ':', '1'}));
        assertConnectionError(ch, ErrorCode.UNSUPPORTED_VERSION);
    }

    @Test
    void unknownFrameTypeClosesTheConnectionWithAnError() {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch);
        ch.writeInbound(raw(2 + 4, Wire.VERSION, 99, new byte[4]));
        assertConnectionError(ch, ErrorCode.UNKNOWN_FRAME_TYPE);
    }

    @Test
    void fetchBeforeHandshakeIsAnUnexpectedFrame() {
        EmbeddedChannel ch = server();
        send(ch, new FetchFrame(1, JOB, MAP, 0, 65536, new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 0)));
        assertConnectionError(ch, ErrorCode.UNEXPECTED_FRAME);
    }

    @Test
    void dataFromTheFetchingSideIsAnUnexpectedFrame() {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch);
        send(ch, new DataFrame(1, Unpooled.wrappedBuffer(new byte[10])));
        assertConnectionError(ch, ErrorCode.UNEXPECTED_FRAME);
    }

    @Test
    void truncatedFrameAtCloseIsCountedAndDoesNotThrow() {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch);
        ch.writeInbound(Unpooled.buffer().writeInt(100).writeByte(Wire.VERSION).writeByte(FrameType.FETCH.code()));
        ch.finishAndReleaseAll();
        assertEquals(1, counters.protocolErrors());
    }

    @Test
    void aBrokenConnectionDoesNotAffectAnotherOne() throws Exception {
        EmbeddedChannel bad = handshaken(server());
        EmbeddedChannel good = handshaken(server());
        Frames.written(bad);
        Frames.written(good);
        bad.writeInbound(raw(Wire.MAX_FRAME_LENGTH * 4, Wire.VERSION, 5, new byte[0]));
        assertFalse(bad.isActive());
        assertArrayEquals(outputs.expectedSegment(files, 2), fetchAll(good, 1, 2, SECRET));
        assertTrue(good.isActive());
    }

    @Test
    void aClientThatClosesMidStreamEndsTheStreamAndOthersAreServed() throws Exception {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch); // the server's HANDSHAKE
        byte[] mac = new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 1);
        send(ch, new FetchFrame(7, JOB, MAP, 1, Wire.MAX_DATA, mac));
        long received = 0;
        for (Object o : Frames.written(ch)) {
            if (o instanceof DataFrame) {
                received += ((DataFrame) o).content().readableBytes();
                ((DataFrame) o).release();
            }
        }
        assertEquals(Wire.MAX_DATA, received, "one window's worth, then the stream waits for credit");
        FlowTally open = scheduler.ledger().snapshot().get(0);
        assertEquals(1, open.streamsStarted());
        assertEquals(0, open.streamsEnded());

        ch.close(); // the fetcher goes away with the stream waiting for credit
        FlowTally closed = scheduler.ledger().snapshot().get(0);
        assertEquals(1, closed.streamsEnded(), "the stream ends with its connection: " + closed);
        assertEquals(closed.requested() - Wire.MAX_DATA, closed.abandoned(), "what was never sent is abandoned");
        assertEquals(0, closed.pending(), closed.toString());
        assertTrue(closed.idle(), closed.toString());
        EmbeddedChannel other = handshaken(server());
        Frames.written(other); // its HANDSHAKE
        assertArrayEquals(outputs.expectedSegment(files, 1), fetchAll(other, 1, 1, SECRET),
                "another connection is served as before");
    }

    @Test
    void servesTheSegmentByteIdenticalIn64KiBBlocksWithinTheGrantedCredit() throws Exception {
        EmbeddedChannel ch = handshaken(server());
        List<Object> hs = Frames.written(ch);
        assertEquals(new HandshakeFrame("server:1"), hs.get(0));
        byte[] got = fetchAll(ch, 5, 1, SECRET);
        byte[] expected = outputs.expectedSegment(files, 1);
        assertTrue(expected.length > 3 * Wire.MAX_DATA, "segment must span several blocks: " + expected.length);
        assertArrayEquals(expected, got);
        outputs.verifyChecksum(got);
        assertEquals(1, counters.streamsServed());
    }

    @Test
    void theBlocksOfOnePassShareOneRunHeaderUpToTheConfiguredRunLength() throws Exception {
        byte[] expected = outputs.expectedSegment(files, 1);
        int window = 3 * Wire.MAX_DATA;
        assertTrue(expected.length > window, "the window must end the pass before the segment: " + expected.length);
        // Runs of 16 (the default): the pass's three blocks under one header. Runs of 2: cut after two blocks, the
        // lone third a DATA frame. Runs of 1: a DATA frame per block, the wire of a proxy without runs. The same
        // bytes every time.
        assertEquals(Arrays.asList("DATA_RUN x3"), firstPassOnTheWire(16, window, expected));
        assertEquals(Arrays.asList("DATA_RUN x2", "DATA"), firstPassOnTheWire(2, window, expected));
        assertEquals(Arrays.asList("DATA", "DATA", "DATA"), firstPassOnTheWire(1, window, expected));
    }

    /**
     * Fetches partition 1 with {@code window} bytes of credit from a server sending runs of at most
     * {@code blocksPerRun} blocks; checks that the blocks carry the segment's first bytes and returns the data
     * frames on the wire (type, and block count for a run).
     */
    private List<String> firstPassOnTheWire(int blocksPerRun, int window, byte[] expected) throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(), new ServerConnectionHandler(
                "server:1", secrets, new SegmentSource(outputs.locator()), scheduler, counters,
                new SendSettings(1 << 20, false, blocksPerRun)));
        handshaken(ch);
        Frames.written(ch);
        send(ch, new FetchFrame(5, JOB, MAP, 1, window, new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 1)));
        ByteBuf wire = Unpooled.buffer();
        Object o;
        while ((o = ch.readOutbound()) != null) {
            wire.writeBytes((ByteBuf) o);
            ((ByteBuf) o).release();
        }
        List<String> dataFrames = new ArrayList<>();
        for (int at = wire.readerIndex(); at < wire.writerIndex(); at += Wire.LENGTH_FIELD + wire.getInt(at)) {
            byte type = wire.getByte(at + Wire.LENGTH_FIELD + 1);
            if (type == FrameType.DATA_RUN.code()) {
                dataFrames.add("DATA_RUN x" + wire.getInt(at + Wire.LENGTH_FIELD + Wire.PREAMBLE));
            } else if (type == FrameType.DATA.code()) {
                dataFrames.add("DATA");
            }
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (Object f : Frames.decode(wire)) {
            if (f instanceof DataFrame) {
                DataFrame d = (DataFrame) f;
                assertEquals(5, d.streamId());
                data.write(ByteBufUtil.getBytes(d.content()));
                d.release();
            }
        }
        assertArrayEquals(Arrays.copyOf(expected, window), data.toByteArray(), "runs of " + blocksPerRun);
        ch.finishAndReleaseAll();
        return dataFrames;
    }

    /** Fetches a whole segment, granting 128 KiB at a time, and checks every protocol rule on the way. */
    private byte[] fetchAll(EmbeddedChannel ch, int streamId, int partition, byte[] secret) throws Exception {
        byte[] mac = new FetchAuthenticator().requestMac(secret, JOB, MAP, partition);
        int window = 2 * Wire.MAX_DATA;
        send(ch, new FetchFrame(streamId, JOB, MAP, partition, window, mac));
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        SegmentHeaderFrame header = null;
        boolean ended = false;
        long unacked = 0;
        for (int round = 0; round < 10_000 && !ended; round++) {
            List<Object> frames = Frames.written(ch);
            long inRound = 0;
            for (Object o : frames) {
                if (o instanceof SegmentHeaderFrame) {
                    header = (SegmentHeaderFrame) o;
                    assertTrue(new FetchAuthenticator().verifyReply(secret, mac, header.compressedLength(),
                            header.rawLength(), header.replyMac()), "reply MAC must verify");
                } else if (o instanceof DataFrame) {
                    DataFrame d = (DataFrame) o;
                    assertTrue(header != null, "DATA before SEGMENT_HEADER");
                    assertTrue(d.content().readableBytes() <= Wire.MAX_DATA);
                    inRound += d.content().readableBytes();
                    byte[] b = new byte[d.content().readableBytes()];
                    d.content().readBytes(b);
                    d.release();
                    data.write(b);
                } else if (o instanceof EndFrame) {
                    ended = true;
                } else {
                    throw new AssertionError("unexpected " + o);
                }
            }
            unacked += inRound;
            assertTrue(unacked <= window, "sender exceeded the credit window: " + unacked);
            if (!ended) {
                assertEquals(window, unacked, "sender must use all its credit before stalling");
                send(ch, new CreditFrame(streamId, (int) unacked));
                unacked = 0;
            }
        }
        assertTrue(ended);
        assertEquals(header.compressedLength(), data.size());
        return data.toByteArray();
    }

    private ErrorFrame refusal(int partition, String job, String map, byte[] macSecret) {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch);
        send(ch, new FetchFrame(3, job, map, partition, 65536, new FetchAuthenticator().requestMac(macSecret, job, map,
                partition)));
        ErrorFrame e = onlyError(Frames.written(ch));
        assertEquals(3, e.streamId());
        assertTrue(ch.isActive(), "a refused fetch must not close the connection");
        assertEquals(0, counters.streamsServed());
        return e;
    }

    @Test
    void aFetchWithoutInitialCreditIsRefusedBeforeAnyFileIsOpened() {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch);
        send(ch, new FetchFrame(3, JOB, MAP, 0, 0, new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 0)));
        ErrorFrame e = onlyError(Frames.written(ch));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        assertTrue(e.message().contains("no initial credit"), e.message());
        assertTrue(ch.isActive(), "a refused fetch must not close the connection");
    }

    @Test
    void aFetchBeyondTheConnectionsOpenStreamCapIsRefusedAndTheConnectionStays() {
        EmbeddedChannel ch = handshaken(new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(),
                new ServerConnectionHandler("server:1", secrets, new SegmentSource(outputs.locator()), scheduler,
                        counters, new SendSettings(1 << 20, false, 1, 2))));
        Frames.written(ch);
        byte[] mac = new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 0);
        // A 1 KiB window keeps each stream of this ~120 KB segment open, waiting for credit.
        send(ch, new FetchFrame(1, JOB, MAP, 0, 1024, mac));
        send(ch, new FetchFrame(2, JOB, MAP, 0, 1024, mac));
        Frames.written(ch);
        send(ch, new FetchFrame(3, JOB, MAP, 0, 1024, mac));
        ErrorFrame e = onlyError(Frames.written(ch));
        assertEquals(3, e.streamId());
        assertEquals(ErrorCode.TOO_MANY_STREAMS, e.code());
        assertTrue(e.message().contains("courier.proxy.connection.max-open-streams"), e.message());
        assertTrue(ch.isActive());
        send(ch, new CancelFrame(1));
        send(ch, new FetchFrame(4, JOB, MAP, 0, 1024, mac));
        assertTrue(Frames.written(ch).stream().noneMatch(f -> f instanceof ErrorFrame),
                "a cancelled stream frees its place");
    }

    @Test
    void wrongMacGetsAnErrorAndNoData() {
        ErrorFrame e = refusal(0, JOB, MAP, OTHER_SECRET);
        assertEquals(ErrorCode.AUTHENTICATION_FAILED, e.code());
        assertTrue(e.message().contains(JOB), e.message());
    }

    @Test
    void unknownJobGetsAnErrorAndNoData() {
        secrets.remove(JOB);
        assertEquals(ErrorCode.UNKNOWN_JOB, refusal(0, JOB, MAP, SECRET).code());
    }

    @Test
    void mapOfAnotherJobGetsAnErrorAndNoData() {
        // Correctly authenticated for JOB, but asks for a map attempt of OTHER_JOB.
        assertEquals(ErrorCode.MAP_OF_OTHER_JOB, refusal(0, JOB, OTHER_MAP, SECRET).code());
    }

    @Test
    void partitionOutOfRangeGetsAnErrorAndNoData() {
        assertEquals(ErrorCode.PARTITION_OUT_OF_RANGE, refusal(4, JOB, MAP, SECRET).code());
        assertEquals(ErrorCode.PARTITION_OUT_OF_RANGE, refusal(-1, JOB, MAP, SECRET).code());
    }

    @Test
    void missingMapOutputGetsARetryableError() {
        ErrorFrame e = refusal(0, JOB, "attempt_1700000000000_0001_m_000009_0", SECRET);
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT, e.code());
        assertTrue(e.code().retryable());
    }

    @Test
    void aMissingIndexOrDataFileGetsARetryableErrorAndNoData() throws Exception {
        // The index without its data file, then the data file without its index (Hadoop answers 500 to both).
        java.io.File moved = new java.io.File(files.data().getPath() + ".moved");
        assertTrue(files.data().renameTo(moved));
        ErrorFrame noData = refusal(0, JOB, MAP, SECRET);
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT, noData.code());
        assertTrue(noData.message().contains(MAP), noData.message());
        assertTrue(moved.renameTo(files.data()));
        assertTrue(files.index().delete());
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT, refusal(0, JOB, MAP, SECRET).code());
        assertTrue(ErrorCode.NO_SUCH_MAP_OUTPUT.retryable(), "the reducer puts the map back; the AM re-runs it");
    }

    @Test
    void aConnectionWithoutHandshakeIsClosedAfterTheTimeoutAndAHandshakenOneIsNot() {
        EmbeddedChannel silent = new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(),
                new ServerConnectionHandler("server:1", secrets, new SegmentSource(outputs.locator()), scheduler,
                        counters, SendSettings.of(1 << 20, false), null, 10_000));
        EmbeddedChannel talking = new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(),
                new ServerConnectionHandler("server:1", secrets, new SegmentSource(outputs.locator()), scheduler,
                        counters, SendSettings.of(1 << 20, false), null, 10_000));
        handshaken(talking);
        Frames.written(talking);
        for (EmbeddedChannel ch : new EmbeddedChannel[] {silent, talking}) {
            ch.freezeTime();
        }
        silent.advanceTimeBy(5, TimeUnit.SECONDS);
        silent.runScheduledPendingTasks();
        assertTrue(silent.isActive(), "not before the timeout");
        for (EmbeddedChannel ch : new EmbeddedChannel[] {silent, talking}) {
            ch.advanceTimeBy(6, TimeUnit.SECONDS);
            ch.runScheduledPendingTasks();
        }
        ErrorFrame e = onlyError(Frames.written(silent));
        assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
        assertTrue(e.message().contains("no HANDSHAKE within 10000 ms"), e.message());
        assertFalse(silent.isActive());
        assertTrue(talking.isActive(), "an established connection is never closed for idleness");
        assertTrue(Frames.written(talking).isEmpty());
        assertEquals(ServerConnectionHandler.HANDSHAKE_TIMEOUT_MILLIS, 30_000);
    }

    @Test
    void corruptIndexGetsAnError() throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(files.index(), "rw")) {
            f.seek(3);
            int b = f.read();
            f.seek(3);
            f.write(b ^ 0x40);
        }
        assertEquals(ErrorCode.CORRUPT_INDEX, refusal(0, JOB, MAP, SECRET).code());
    }

    @Test
    void refusedFetchLeavesTheConnectionUsable() throws Exception {
        EmbeddedChannel ch = handshaken(server());
        Frames.written(ch);
        send(ch, new FetchFrame(1, JOB, MAP, 0, 65536, new byte[32]));
        assertEquals(ErrorCode.AUTHENTICATION_FAILED, onlyError(Frames.written(ch)).code());
        assertArrayEquals(outputs.expectedSegment(files, 3), fetchAll(ch, 2, 3, SECRET));
    }
}
