package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FrameType;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import io.courier.shuffle.proxy.protocol.RouteFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The task's blocking relay client against a scripted local proxy: credit, admission, timeouts and every way
 * the proxy can misbehave, frame by frame.
 */
@Timeout(60)
class TaskSocketConnectionTest {
    private static final byte[] SECRET = "job-secret".getBytes(StandardCharsets.UTF_8);
    private static final String JOB = "job_1_0001";
    private static final String SOURCE = "10.0.0.2:13563";
    private static final int WINDOW = 1024;

    private static RelayClientConfig config() {
        return RelayClientConfig.defaults().withStreamWindow(WINDOW).withMaxInFlight(2L * WINDOW)
                .withReadTimeoutMillis(300);
    }

    private static String map(int m) {
        return "attempt_1_0001_m_00000" + m + "_0";
    }

    /** Answers a RELAY_FETCH with ROUTE and a SEGMENT_HEADER whose reply MAC verifies. */
    private static void answer(ScriptedLocalProxy proxy, RelayFetchFrame f, long length) throws Exception {
        proxy.send(new RouteFrame(f.streamId(), "127.0.0.1:1->" + SOURCE + "#1"));
        proxy.send(new SegmentHeaderFrame(f.streamId(), f.mapAttempt(), f.partition(), length, length,
                new FetchAuthenticator().replyMac(SECRET, f.fetch().mac(), length, length)));
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + i * 7);
        }
        return b;
    }

    @Test
    void aWholeSegmentArrivesWithCreditInHalfWindowsAndIsCounted() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream s = client.fetch(SOURCE, JOB, map(0), 3, SECRET);
            RelayFetchFrame f = (RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH);
            assertEquals(SOURCE, f.source());
            assertEquals(WINDOW, f.initialCredit());
            assertTrue(new FetchAuthenticator().verifyRequest(SECRET, JOB, map(0), 3, f.fetch().mac()));
            byte[] segment = bytes(2 * WINDOW, 1);
            answer(proxy, f, segment.length);
            proxy.sendData(f.streamId(), Arrays.copyOfRange(segment, 0, WINDOW));
            assertEquals(segment.length, s.awaitHeader(5, TimeUnit.SECONDS).compressedLength());
            InputStream in = s.data();
            byte[] got = new byte[segment.length];
            int n = 0;
            while (n < WINDOW / 2) {
                n += in.read(got, n, WINDOW / 2 - n);
            }
            assertEquals(new CreditFrame(f.streamId(), WINDOW / 2), proxy.next(FrameType.CREDIT));
            proxy.sendData(f.streamId(), Arrays.copyOfRange(segment, WINDOW, WINDOW + WINDOW / 2));
            while (n < WINDOW) {
                n += in.read(got, n, WINDOW - n);
            }
            assertEquals(new CreditFrame(f.streamId(), WINDOW / 2), proxy.next(FrameType.CREDIT));
            proxy.sendData(f.streamId(), Arrays.copyOfRange(segment, WINDOW + WINDOW / 2, segment.length));
            proxy.send(new EndFrame(f.streamId()));
            int k;
            while ((k = in.read(got, n, got.length - n)) > 0) {
                n += k;
            }
            assertEquals(-1, in.read());
            assertArrayEquals(segment, got);
            RelayCounters c = client.counters();
            assertEquals(1, c.segments());
            assertEquals(segment.length, c.bytes());
            assertEquals(1, c.peerConnections());
            assertEquals(0, c.streamsFailed());
        }
    }

    @Test
    void aSourceThatStallsMidSegmentFailsThatFetchAfterTheReadTimeoutAndCancelsIt() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream s = client.fetch(SOURCE, JOB, map(0), 0, SECRET);
            RelayFetchFrame f = (RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH);
            answer(proxy, f, 100);
            proxy.sendData(f.streamId(), bytes(10, 0));
            s.awaitHeader(5, TimeUnit.SECONDS);
            InputStream in = s.data();
            assertEquals(10, in.read(new byte[100]));
            long start = System.nanoTime();
            FetchException e = assertThrows(FetchException.class, () -> in.read(new byte[100]));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(250), "waited the read timeout");
            assertEquals(ErrorCode.PEER_LOST, e.code());
            assertFalse(e.isConnectionFailure(), "a stalled stream is that fetch's failure, not the connection's");
            assertTrue(e.getMessage().contains("no data") && e.getMessage().contains(map(0))
                    && e.getMessage().contains("10 of 100"), e.getMessage());
            assertEquals(new CancelFrame(f.streamId()), proxy.next(FrameType.CANCEL));
            // The connection is still good for the next fetch.
            client.fetch(SOURCE, JOB, map(1), 0, SECRET);
            assertEquals(map(1), ((RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH)).mapAttempt());
        }
    }

    @Test
    void fetchesBeyondMaxInFlightWaitUntilAStreamIsDone() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream first = client.fetch(SOURCE, JOB, map(0), 0, SECRET);
            client.fetch(SOURCE, JOB, map(1), 0, SECRET);
            client.fetch(SOURCE, JOB, map(2), 0, SECRET);
            assertEquals(2, proxy.count(FrameType.RELAY_FETCH, 300), "two windows fit in max in-flight");
            first.close();
            assertEquals(new CancelFrame(1), proxy.next(FrameType.CANCEL));
            assertEquals(map(2), ((RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH)).mapAttempt());
        }
    }

    @Test
    void bytesBeyondTheGrantFailTheStreamButNotTheConnection() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream s = client.fetch(SOURCE, JOB, map(0), 0, SECRET);
            RelayFetchFrame f = (RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH);
            answer(proxy, f, 4 * WINDOW);
            proxy.sendData(f.streamId(), bytes(WINDOW, 0));
            proxy.sendData(f.streamId(), bytes(1, 0));
            assertEquals(new CancelFrame(f.streamId()), proxy.next(FrameType.CANCEL));
            FetchException e = assertThrows(FetchException.class, () -> {
                InputStream in = s.data();
                while (in.read(new byte[4096]) >= 0) {
                    // drain until the failure surfaces
                }
            });
            assertEquals(ErrorCode.MALFORMED_FRAME, e.code());
            assertTrue(e.getMessage().contains("granted"), e.getMessage());
            client.fetch(SOURCE, JOB, map(1), 0, SECRET);
            assertEquals(map(1), ((RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH)).mapAttempt());
            assertEquals(1, client.counters().streamsFailed());
        }
    }

    @Test
    void aReplyMacThatDoesNotVerifyFailsTheStreamBeforeAnyByteIsRead() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream s = client.fetch(SOURCE, JOB, map(0), 0, SECRET);
            RelayFetchFrame f = (RelayFetchFrame) proxy.next(FrameType.RELAY_FETCH);
            proxy.send(new SegmentHeaderFrame(f.streamId(), f.mapAttempt(), 0, 10, 10,
                    new FetchAuthenticator().replyMac("other".getBytes(StandardCharsets.UTF_8), f.fetch().mac(), 10, 10)));
            FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(5, TimeUnit.SECONDS));
            assertEquals(ErrorCode.REPLY_AUTHENTICATION_FAILED, e.code());
            assertEquals(new CancelFrame(f.streamId()), proxy.next(FrameType.CANCEL));
        }
    }

    @Test
    void aStreamErrorFailsOnlyThatStreamAndAConnectionErrorFailsAllAsConnectionFailures() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream a = client.fetch(SOURCE, JOB, map(0), 0, SECRET);
            RelayStream b = client.fetch(SOURCE, JOB, map(1), 0, SECRET);
            proxy.count(FrameType.RELAY_FETCH, 200);
            proxy.send(new ErrorFrame(1, ErrorCode.PEER_UNREACHABLE, "cannot connect to " + SOURCE));
            FetchException ea = assertThrows(FetchException.class, () -> a.awaitHeader(5, TimeUnit.SECONDS));
            assertEquals(ErrorCode.PEER_UNREACHABLE, ea.code());
            assertFalse(ea.isConnectionFailure());
            proxy.send(new ErrorFrame(0, ErrorCode.SHUTTING_DOWN, "proxy stopping"));
            FetchException eb = assertThrows(FetchException.class, () -> b.awaitHeader(5, TimeUnit.SECONDS));
            assertTrue(eb.isConnectionFailure(), eb.getMessage());
            assertTrue(eb.getMessage().contains("SHUTTING_DOWN") && eb.getMessage().contains("local proxy"),
                    eb.getMessage());
        }
    }

    @Test
    void framesForAStreamNeverOpenedAreAnsweredWithUnknownStream() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            proxy.sendData(99, bytes(5, 0));
            ErrorFrame e = (ErrorFrame) proxy.next(FrameType.ERROR);
            assertEquals(99, e.streamId());
            assertEquals(ErrorCode.UNKNOWN_STREAM, e.code());
        }
    }

    @Test
    void aFrameATaskMayNotReceiveClosesTheConnectionWithAnError() throws Exception {
        try (ScriptedLocalProxy proxy = new ScriptedLocalProxy();
             LocalProxyClient client = LocalProxyClient.connect("127.0.0.1", proxy.port(), config())) {
            RelayStream s = client.fetch(SOURCE, JOB, map(0), 0, SECRET);
            proxy.next(FrameType.RELAY_FETCH);
            proxy.send(new CreditFrame(1, 100));
            ErrorFrame e = (ErrorFrame) proxy.next(FrameType.ERROR);
            assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
            FetchException f = assertThrows(FetchException.class, () -> s.awaitHeader(5, TimeUnit.SECONDS));
            assertTrue(f.isConnectionFailure(), f.getMessage());
        }
    }
}
