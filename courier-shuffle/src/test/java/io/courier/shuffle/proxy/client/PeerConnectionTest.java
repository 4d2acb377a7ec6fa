package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.testing.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fetching side on Netty's EmbeddedChannel: frames for unknown streams, credit violations, reply MACs. */
class PeerConnectionTest {
    private static final String JOB = "job_1_0001";
    private static final String MAP = "attempt_1_0001_m_000000_0";
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final int WINDOW = 4096;

    private final ClientCounters counters = new ClientCounters();
    private final MemoryBudget budget = new MemoryBudget(4 * WINDOW);
    private EmbeddedChannel ch;
    private PeerConnection conn;

    private void open() {
        ch = new EmbeddedChannel();
        conn = new PeerConnection("me:1", "peer:2", ch.eventLoop(), WINDOW, 2 * WINDOW, budget, counters, () -> { },
                n -> { });
        ch.pipeline().addLast(new FrameDecoder(), new FrameEncoder(), new ClientConnectionHandler(conn));
        conn.active(ch);
        assertEquals(new HandshakeFrame("me:1"), Frames.written(ch).get(0));
    }

    private SegmentStream fetch() {
        SegmentStream s = new SegmentStream("peer:2", JOB, MAP, 0);
        conn.submit(s, SECRET);
        ch.runPendingTasks();
        return s;
    }

    private void receive(Frame f) {
        EmbeddedChannel enc = new EmbeddedChannel(new FrameEncoder());
        enc.writeOutbound(f);
        ByteBuf b;
        while ((b = enc.readOutbound()) != null) {
            ch.writeInbound(b);
        }
        ch.runPendingTasks();
    }

    private SegmentHeaderFrame header(int id, long length, byte[] secret) {
        byte[] mac = new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 0);
        return new SegmentHeaderFrame(id, MAP, 0, length, length, new FetchAuthenticator().replyMac(secret, mac, length,
                length));
    }

    @Test
    void dataForAStreamNeverOpenedIsRejectedWithAnErrorAndTheConnectionStays() {
        open();
        receive(new DataFrame(77, Unpooled.wrappedBuffer(new byte[100])));
        assertEquals(1, counters.rejectedFrames());
        List<Object> out = Frames.written(ch);
        ErrorFrame e = (ErrorFrame) out.get(0);
        assertEquals(ErrorCode.UNKNOWN_STREAM, e.code());
        assertEquals(77, e.streamId());
        assertTrue(ch.isActive());
    }

    @Test
    void lateDataOfACancelledStreamIsDroppedQuietly() {
        open();
        SegmentStream s = fetch();
        FetchFrame f = (FetchFrame) Frames.written(ch).get(0);
        s.close();
        ch.runPendingTasks();
        Frames.written(ch); // the CANCEL
        receive(new DataFrame(f.streamId(), Unpooled.wrappedBuffer(new byte[100])));
        assertEquals(1, counters.rejectedFrames());
        assertTrue(Frames.written(ch).isEmpty(), "no error for a stream we cancelled ourselves");
        assertEquals(0, budget.used(), "a cancelled stream returns its window");
    }

    @Test
    void segmentIsDeliveredAndCreditIsReturnedAsItIsRead() throws Exception {
        open();
        SegmentStream s = fetch();
        FetchFrame f = (FetchFrame) Frames.written(ch).get(0);
        assertEquals(WINDOW, f.initialCredit());
        assertTrue(new FetchAuthenticator().verifyRequest(SECRET, JOB, MAP, 0, f.mac()));
        byte[] payload = new byte[WINDOW];
        new java.util.Random(5).nextBytes(payload);
        receive(header(f.streamId(), WINDOW, SECRET));
        receive(new DataFrame(f.streamId(), Unpooled.wrappedBuffer(payload)));
        receive(new EndFrame(f.streamId()));
        assertEquals(WINDOW, s.awaitHeader(1, TimeUnit.SECONDS).compressedLength());
        byte[] got = new byte[WINDOW];
        int n = 0;
        while (n < WINDOW) {
            n += s.data().read(got, n, WINDOW - n);
        }
        assertEquals(-1, s.data().read());
        assertArrayEquals(payload, got);
        ch.runPendingTasks();
        assertEquals(0, budget.used());
    }

    @Test
    void dataBeyondTheGrantedCreditFailsTheStream() throws Exception {
        open();
        SegmentStream s = fetch();
        FetchFrame f = (FetchFrame) Frames.written(ch).get(0);
        receive(header(f.streamId(), 3L * WINDOW, SECRET));
        receive(new DataFrame(f.streamId(), Unpooled.wrappedBuffer(new byte[WINDOW])));
        receive(new DataFrame(f.streamId(), Unpooled.wrappedBuffer(new byte[1])));
        FetchException e = assertThrows(FetchException.class, () -> s.data().read(new byte[10], 0, 10));
        assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
        assertTrue(e.getMessage().contains("granted"), e.getMessage());
        assertTrue(ch.isActive());
    }

    @Test
    void forgedReplyMacFailsTheStreamBeforeAnyData() throws Exception {
        open();
        SegmentStream s = fetch();
        FetchFrame f = (FetchFrame) Frames.written(ch).get(0);
        receive(header(f.streamId(), 10, "other".getBytes(StandardCharsets.UTF_8)));
        FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(1, TimeUnit.SECONDS));
        assertEquals(ErrorCode.REPLY_AUTHENTICATION_FAILED, e.code());
    }

    @Test
    void admissionWaitsForTheConnectionBudget() {
        open();
        fetch();
        fetch();
        SegmentStream third = fetch();
        assertEquals(2, Frames.written(ch).size(), "only two windows fit in the connection budget");
        assertEquals(2 * WINDOW, budget.used());
        third.close();
        ch.runPendingTasks();
        assertTrue(Frames.written(ch).isEmpty(), "a stream closed while waiting is never sent");
    }

    @Test
    void aConnectionWaitingForTheNodeBudgetRegistersOnce() {
        MemoryBudget tight = new MemoryBudget(WINDOW);
        ch = new EmbeddedChannel();
        conn = new PeerConnection("me:1", "peer:2", ch.eventLoop(), WINDOW, 8 * WINDOW, tight, counters, () -> { },
                n -> { });
        ch.pipeline().addLast(new FrameDecoder(), new FrameEncoder(), new ClientConnectionHandler(conn));
        conn.active(ch);
        for (int i = 0; i < 5; i++) {
            fetch();
        }
        assertEquals(1, tight.waiters(), "repeated admission attempts must not pile up waiters");
        assertEquals(WINDOW, tight.used());
    }

    @Test
    void lostConnectionFailsEveryStreamRetryably() {
        open();
        SegmentStream a = fetch();
        SegmentStream b = fetch();
        SegmentStream waiting = fetch();
        ch.close();
        ch.runPendingTasks();
        for (SegmentStream s : new SegmentStream[] {a, b, waiting}) {
            FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(1, TimeUnit.SECONDS));
            assertEquals(ErrorCode.PEER_LOST, e.code());
            assertTrue(e.retryable());
        }
        assertEquals(0, budget.used());
    }

    @Test
    void aSourceThatStallsMidSegmentFailsTheReadAfterTheReadTimeoutAndIsCancelled() throws Exception {
        open();
        SegmentStream s = fetch();
        assertEquals(SegmentStream.DEFAULT_READ_TIMEOUT_MILLIS, s.readTimeoutMillis(), "Hadoop's 180 s by default");
        FetchFrame f = (FetchFrame) Frames.written(ch).get(0);
        receive(header(f.streamId(), 1000, SECRET));
        receive(new DataFrame(f.streamId(), Unpooled.wrappedBuffer(new byte[400])));
        // 400 of 1000 bytes, then the source goes quiet without closing the connection.
        java.io.InputStream in = s.data(200, TimeUnit.MILLISECONDS);
        byte[] buf = new byte[1000];
        assertEquals(400, in.read(buf, 0, 1000));
        long t = System.nanoTime();
        FetchException e = assertThrows(FetchException.class, () -> in.read(buf, 0, 1000));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t);
        assertTrue(waited >= 150, "failed after " + waited + " ms, before the timeout");
        assertEquals(ErrorCode.PEER_LOST, e.code());
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("read timeout") && e.getMessage().contains("400 of 1000"), e.getMessage());
        ch.runPendingTasks();
        List<Object> sent = Frames.written(ch);
        assertTrue(sent.contains(new io.courier.shuffle.proxy.protocol.CancelFrame(f.streamId())),
                "the stalled stream is cancelled at its source: " + sent);
        assertEquals(0, budget.used(), "its window is returned");
        // Late bytes of the cancelled stream are dropped, and later reads keep failing the same way.
        receive(new DataFrame(f.streamId(), Unpooled.wrappedBuffer(new byte[600])));
        assertThrows(FetchException.class, () -> s.data().read());
        assertTrue(ch.isActive(), "only the stream failed, not the connection");
    }

    @Test
    void closedStreamCannotBeRead() {
        open();
        SegmentStream s = fetch();
        s.close();
        assertThrows(IOException.class, () -> s.data().read());
    }
}
