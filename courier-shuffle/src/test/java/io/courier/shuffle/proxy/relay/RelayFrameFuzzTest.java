package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.testing.Frames;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.ProxyClient;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.server.SendSettings;
import io.courier.shuffle.proxy.server.ServerConnectionHandler;
import io.courier.shuffle.proxy.server.ServerCounters;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.SegmentSource;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the relay side of a proxy: a local task connects (a valid TASK handshake), then sends arbitrary bytes
 * where RELAY_FETCH, CREDIT, CANCEL and ERROR frames are expected. The proxy's client is closed, so no fuzzed
 * source address is ever resolved or dialled: every accepted RELAY_FETCH fails its own stream with
 * SHUTTING_DOWN. Whatever the bytes, no exception escapes the pipeline, what the proxy answers is well-formed,
 * a connection-level ERROR (stream 0) is the last frame and closes the connection, a stream's ERROR is the
 * SHUTTING_DOWN of its refused fetch, and the relay holds no bytes. Seeds: {@code RelayFrameFuzzTestInputs/} in test resources.
 */
class RelayFrameFuzzTest {
    private static final InetSocketAddress TASK = new InetSocketAddress("127.0.0.1", 40000);
    private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 7000);
    private static final byte[] HELLO = Frames.encodeBytes(new HandshakeFrame("task-1", HandshakeFrame.Role.TASK));

    @FuzzTest(maxDuration = "5m")
    void arbitraryTaskBytesNeverBreakTheRelay(byte[] input) {
        EmbeddedChannel loop = new EmbeddedChannel();
        ProxyClient client = new ProxyClient("node-a:7000", loop.eventLoop(), 64 * 1024, 1 << 20, 1 << 20, 1000, 1);
        client.close();
        RelayService relay = new RelayService("node-a:7000", client, new RelayAccess(false), RelayService.UNLIMITED, 1000,
                null, 1024);
        ServerConnectionHandler server = new ServerConnectionHandler("node-a:7000", new InMemorySecrets(),
                new SegmentSource(new DirectoryMapOutputLocator(new File("/nonexistent-courier-fuzz"))),
                new SendScheduler("node-a:7000", SelectAndSplit.UNLIMITED, 1 << 20), new ServerCounters(),
                SendSettings.of(1 << 20, false), relay);
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(), new FrameEncoder(), server) {
            @Override
            protected SocketAddress remoteAddress0() {
                return TASK;
            }

            @Override
            protected SocketAddress localAddress0() {
                return LOCAL;
            }
        };
        List<Object> answers = new ArrayList<>();
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(HELLO));
            assertTrue(ch.isActive(), "a loopback task is accepted");
            if (input.length > 0) {
                // EmbeddedChannel rethrows anything that reached the end of the pipeline unhandled.
                ch.writeInbound(Unpooled.wrappedBuffer(input));
            }
            ch.runPendingTasks();
            loop.runPendingTasks();
            answers = written(ch);
            assertEquals(new HandshakeFrame("node-a:7000"), answers.get(0));
            for (int i = 1; i < answers.size(); i++) {
                Object o = answers.get(i);
                assertTrue(o instanceof ErrorFrame, "the relay has nothing but errors to send here, sent " + o);
                ErrorFrame e = (ErrorFrame) o;
                if (e.streamId() == 0) {
                    assertEquals(answers.size() - 1, i, "a connection error is the last frame");
                    assertFalse(ch.isActive(), "a connection error closes the connection");
                } else {
                    assertEquals(ErrorCode.SHUTTING_DOWN, e.code(), e.toString());
                }
            }
            assertEquals(0, relay.stats().outstandingBytes());
        } finally {
            for (Object o : answers) {
                ReferenceCountUtil.release(o);
            }
            ch.finishAndReleaseAll();
            loop.finishAndReleaseAll();
        }
    }

    /** Decodes what the proxy wrote; a proxy that writes something undecodable fails the test here. */
    private static List<Object> written(EmbeddedChannel ch) {
        EmbeddedChannel dec = new EmbeddedChannel(new FrameDecoder());
        Object o;
        while ((o = ch.readOutbound()) != null) {
            dec.writeInbound(o);
        }
        List<Object> out = new ArrayList<>();
        while ((o = dec.readInbound()) != null) {
            out.add(o);
        }
        dec.finishAndReleaseAll();
        return out;
    }
}
