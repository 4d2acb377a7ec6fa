package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ChannelFrameReader;
import io.courier.shuffle.proxy.protocol.DirectBlockPool;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameBodies;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import io.courier.shuffle.proxy.testing.Eventually;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What one task connection may hold at the relay: a RELAY_FETCH without initial credit (a stream that could never
 * move a byte but would keep the source's file open) and one beyond {@code courier.proxy.connection.max-open-streams}
 * are refused with an ERROR for that stream, and the connection stays (spoken over a raw TCP task connection, as a
 * hostile local process would); a source that accepts and never speaks cannot hold the relay's budget.
 */
@Timeout(60)
class RelayStreamLimitsTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "secret".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;

    private static void write(SocketChannel ch, Frame f) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(FrameBodies.encode(f));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Reads frames until the ERROR of {@code streamId}. */
    private static ErrorFrame errorOf(ChannelFrameReader in, int streamId) throws Exception {
        while (true) {
            Frame f = in.read();
            if (f instanceof ErrorFrame && ((ErrorFrame) f).streamId() == streamId) {
                return (ErrorFrame) f;
            }
            assertTrue(f != null && f.streamId() != 0, "connection ended or failed before stream " + streamId
                    + "'s answer: " + f);
        }
    }

    @Test
    void noCreditAndStreamsBeyondTheCapAreRefusedAndTheConnectionStays() throws Exception {
        ProxyConfig config = ProxyConfig.defaults().withRelayDomainSocket("false").withConnectionMaxOpenStreams(2);
        try (ProxyCluster c = new ProxyCluster(dir, 2, config)) {
            c.secrets().put(JOB, SECRET);
            c.outputs(1).write(JOB, MAP, 1, 400, 300, 5); // ~120 KB: a 1 KiB window keeps its stream open
            NodeAddress a = NodeAddress.parse(c.id(0));
            byte[] mac = new FetchAuthenticator().requestMac(SECRET, JOB, MAP, 0);
            try (SocketChannel ch = SocketChannel.open(new InetSocketAddress(a.host(), a.port()))) {
                ChannelFrameReader in = new ChannelFrameReader(ch, new DirectBlockPool(4));
                write(ch, new HandshakeFrame("hostile", HandshakeFrame.Role.TASK));
                assertTrue(in.read() instanceof HandshakeFrame);

                write(ch, new RelayFetchFrame(1, c.id(1), JOB, MAP, 0, 0, mac));
                ErrorFrame noCredit = errorOf(in, 1);
                assertEquals(ErrorCode.MALFORMED_FRAME, noCredit.code(), noCredit.message());
                assertTrue(noCredit.message().contains("no initial credit"), noCredit.message());

                write(ch, new RelayFetchFrame(2, c.id(1), JOB, MAP, 0, 1024, mac));
                write(ch, new RelayFetchFrame(3, c.id(1), JOB, MAP, 0, 1024, mac));
                write(ch, new RelayFetchFrame(4, c.id(1), JOB, MAP, 0, 1024, mac));
                ErrorFrame full = errorOf(in, 4);
                assertEquals(ErrorCode.TOO_MANY_STREAMS, full.code(), full.message());
                assertTrue(full.message().contains("courier.proxy.connection.max-open-streams"), full.message());
                assertTrue(ch.isOpen());
            }
            assertEquals(2, c.proxy(0).relayStats().streamsFailed(), "the two refusals, nothing else");
        }
    }

    @Test
    void aSourceThatAcceptsAndStaysSilentFailsItsStreamsAndGivesTheirBudgetBack() throws Exception {
        ProxyConfig config = ProxyConfig.defaults().withRelayDomainSocket("false").withConnectTimeoutMillis(300);
        try (ProxyCluster c = new ProxyCluster(dir, 1, config);
                ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            NodeAddress a = NodeAddress.parse(c.id(0));
            String source = "127.0.0.1:" + silent.getLocalPort();
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(), RelayClientConfig.defaults(),
                    "t")) {
                RelayStream s = task.fetch(source, JOB, MAP, 0, SECRET);
                FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(20, TimeUnit.SECONDS));
                assertEquals(ErrorCode.PEER_UNREACHABLE, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("no HANDSHAKE within 300 ms"), e.getMessage());
            }
            // Released on the relay's event loop, after the task already saw the failure.
            Eventually.waitUntil("the stream's window back in the node budget",
                    () -> c.proxy(0).reservedBytes() == 0);
        }
    }
}
