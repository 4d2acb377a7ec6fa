package io.courier.shuffle.proxy.relay;

import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.ProxyClient;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.server.SendSettings;
import io.courier.shuffle.proxy.server.ServerConnectionHandler;
import io.courier.shuffle.proxy.server.ServerCounters;
import io.courier.shuffle.proxy.server.TaskConnectionAcceptor;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.SegmentSource;
import io.courier.shuffle.proxy.testing.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server pipeline's hand-over of TASK connections to the relay, and the local-only rule. */
class RelayHandshakeTest {
    /** TEST-NET-3 (RFC 5737): never an address of this host. */
    private static final InetSocketAddress REMOTE = new InetSocketAddress("203.0.113.7", 40000);
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 40000);
    private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 7000);
    private static final byte[] MAC = new byte[32];

    @TempDir
    File dir;

    private EmbeddedChannel connectionFrom(InetSocketAddress from, TaskConnectionAcceptor tasks) {
        ServerConnectionHandler server = new ServerConnectionHandler("node-a:7000", new InMemorySecrets(),
                new SegmentSource(new DirectoryMapOutputLocator(dir)),
                new SendScheduler("node-a:7000", SelectAndSplit.UNLIMITED, 1 << 20), new ServerCounters(),
                SendSettings.of(1 << 20, false), tasks);
        return new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(), server) {
            @Override
            protected SocketAddress remoteAddress0() {
                return from;
            }

            @Override
            protected SocketAddress localAddress0() {
                return LOCAL;
            }
        };
    }

    private static RelayService relay(EmbeddedChannel loopOwner, boolean allowRemote) {
        return relay(loopOwner, allowRemote, RelayService.UNLIMITED, 1000);
    }

    private static RelayService relay(EmbeddedChannel loopOwner, boolean allowRemote, int maxConnections,
            int retryAfterMillis) {
        return new RelayService("node-a:7000", new ProxyClient("node-a:7000", loopOwner.eventLoop(), 64 * 1024,
                1 << 20, 1 << 20, 1000, 1), new RelayAccess(allowRemote), maxConnections, retryAfterMillis, null,
                1024);
    }

    private static void send(EmbeddedChannel ch, Frame f) {
        EmbeddedChannel enc = new EmbeddedChannel(new FrameEncoder());
        enc.writeOutbound(f);
        ByteBuf b;
        while ((b = enc.readOutbound()) != null) {
            ch.writeInbound(b);
        }
    }

    /** Sends a TASK handshake on {@code ch}; asserts it is answered with one connection error {@code code} and closed. */
    private static ErrorFrame refusedTask(EmbeddedChannel ch, String task, ErrorCode code) {
        send(ch, new HandshakeFrame(task, HandshakeFrame.Role.TASK));
        List<Object> out = Frames.written(ch);
        assertEquals(1, out.size(), out.toString());
        ErrorFrame e = (ErrorFrame) out.get(0);
        assertEquals(0, e.streamId());
        assertEquals(code, e.code());
        assertFalse(ch.isActive(), "the refused connection is closed");
        return e;
    }

    @Test
    void aTaskFromARemoteAddressIsRefusedUnlessAllowed() {
        EmbeddedChannel loop = new EmbeddedChannel();
        RelayService relay = relay(loop, false);
        EmbeddedChannel ch = connectionFrom(REMOTE, relay);
        ErrorFrame e = refusedTask(ch, "task-1", ErrorCode.RELAY_NOT_ALLOWED);
        assertTrue(e.message().contains("courier.proxy.relay.allow-remote"), e.message());
        assertEquals(1, relay.stats().refusedConnections());
        assertEquals(0, relay.stats().taskConnections());
        ch.finishAndReleaseAll();
        loop.finishAndReleaseAll();
    }

    @Test
    void aTaskFromARemoteAddressIsAcceptedWhenAllowed() {
        EmbeddedChannel loop = new EmbeddedChannel();
        RelayService relay = relay(loop, true);
        EmbeddedChannel ch = connectionFrom(REMOTE, relay);
        send(ch, new HandshakeFrame("task-1", HandshakeFrame.Role.TASK));
        assertEquals(new HandshakeFrame("node-a:7000"), Frames.written(ch).get(0));
        assertTrue(ch.isActive());
        assertNotNull(ch.pipeline().get("relay"), "the relay handler took over: " + ch.pipeline().names());
        assertEquals(1, relay.stats().taskConnections());
        ch.finishAndReleaseAll();
        loop.finishAndReleaseAll();
    }

    @Test
    void aLoopbackTaskIsAcceptedAndMayOnlySendRelayFrames() {
        EmbeddedChannel loop = new EmbeddedChannel();
        RelayService relay = relay(loop, false);
        EmbeddedChannel ch = connectionFrom(LOOPBACK, relay);
        send(ch, new HandshakeFrame("task-1", HandshakeFrame.Role.TASK));
        assertEquals(new HandshakeFrame("node-a:7000"), Frames.written(ch).get(0));

        // A source that is not host:port fails that stream only.
        send(ch, new RelayFetchFrame(1, "no-port", "job_1_0001", "attempt_1_0001_m_000000_0", 0, 1024, MAC));
        List<Object> out = Frames.written(ch);
        assertEquals(1, out.size(), out.toString());
        ErrorFrame bad = (ErrorFrame) out.get(0);
        assertEquals(1, bad.streamId());
        assertEquals(ErrorCode.MALFORMED_FRAME, bad.code());
        assertTrue(ch.isActive());

        // A peer's FETCH is not allowed on a task connection.
        send(ch, new FetchFrame(2, "job_1_0001", "attempt_1_0001_m_000000_0", 0, 1024, MAC));
        ErrorFrame e = (ErrorFrame) Frames.written(ch).get(0);
        assertEquals(0, e.streamId());
        assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
        assertFalse(ch.isActive());
        ch.finishAndReleaseAll();
        loop.finishAndReleaseAll();
    }

    @Test
    void aTaskBeyondTheConnectionCapIsToldToRetryLaterAndAClosedConnectionFreesItsSlot() {
        EmbeddedChannel loop = new EmbeddedChannel();
        RelayService relay = relay(loop, false, 2, 750);
        EmbeddedChannel first = connectionFrom(LOOPBACK, relay);
        EmbeddedChannel second = connectionFrom(LOOPBACK, relay);
        send(first, new HandshakeFrame("task-1", HandshakeFrame.Role.TASK));
        send(second, new HandshakeFrame("task-2", HandshakeFrame.Role.TASK));
        assertEquals(2, relay.stats().openTaskConnections());

        // Hadoop's testMaxConnections: the connection beyond the cap gets 429 with a Retry-After.
        EmbeddedChannel third = connectionFrom(LOOPBACK, relay);
        ErrorFrame e = refusedTask(third, "task-3", ErrorCode.OVERLOADED);
        assertEquals(750, e.retryAfterMillis());
        assertTrue(e.message().contains("courier.proxy.relay.max-connections"), e.message());
        assertTrue(first.isActive() && second.isActive(), "the accepted ones are not affected");
        assertEquals(1, relay.stats().overloadedConnections());
        assertEquals(2, relay.stats().taskConnections());

        first.close();
        assertEquals(1, relay.stats().openTaskConnections(), "a closed task connection gives its slot back");
        EmbeddedChannel fourth = connectionFrom(LOOPBACK, relay);
        send(fourth, new HandshakeFrame("task-4", HandshakeFrame.Role.TASK));
        assertEquals(new HandshakeFrame("node-a:7000"), Frames.written(fourth).get(0));
        assertTrue(fourth.isActive());
        assertEquals(2, relay.stats().openTaskConnections());
        for (EmbeddedChannel ch : new EmbeddedChannel[] {first, second, third, fourth}) {
            ch.finishAndReleaseAll();
        }
        assertEquals(0, relay.stats().openTaskConnections());
        loop.finishAndReleaseAll();
    }

    @Test
    void aProxyWithoutRelayRefusesTaskConnections() {
        EmbeddedChannel ch = connectionFrom(LOOPBACK, null);
        send(ch, new HandshakeFrame("task-1", HandshakeFrame.Role.TASK));
        ErrorFrame e = (ErrorFrame) Frames.written(ch).get(0);
        assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
        assertFalse(ch.isActive());
        ch.finishAndReleaseAll();
    }

    @Test
    void relayFramesBeforeTheHandshakeOrOnAPeerConnectionAreUnexpected() {
        EmbeddedChannel ch = connectionFrom(LOOPBACK, relay(new EmbeddedChannel(), false));
        send(ch, new HandshakeFrame("node-b:7000"));
        assertEquals(new HandshakeFrame("node-a:7000"), Frames.written(ch).get(0));
        send(ch, new RelayFetchFrame(1, "node-c:7000", "job_1_0001", "attempt_1_0001_m_000000_0", 0, 1024, MAC));
        ErrorFrame e = (ErrorFrame) Frames.written(ch).get(0);
        assertEquals(ErrorCode.UNEXPECTED_FRAME, e.code());
        ch.finishAndReleaseAll();
    }

    @Test
    void accessRule() {
        RelayAccess localOnly = new RelayAccess(false);
        assertTrue(localOnly.allows(LOOPBACK, LOCAL));
        assertTrue(localOnly.allows(new InetSocketAddress("::1", 1), LOCAL));
        assertTrue(localOnly.allows(new InetSocketAddress("10.1.2.3", 1), new InetSocketAddress("10.1.2.3", 7000)),
                "the node's own address");
        assertFalse(localOnly.allows(REMOTE, LOCAL));
        assertFalse(localOnly.allows(null, LOCAL));
        assertTrue(new RelayAccess(true).allows(REMOTE, LOCAL));
    }
}
