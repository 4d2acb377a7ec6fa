package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.TestPorts;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.courier.shuffle.proxy.testing.Eventually.waitUntil;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a task sees when the source, the request or its own proxy is wrong. */
@Timeout(60)
class RelayFailureTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final int TASK_WINDOW = 16 * 1024;

    @TempDir
    File dir;

    private static String map(int m) {
        return String.format("attempt_1700000000000_0001_m_%06d_0", m);
    }

    private static LocalProxyClient taskOn(ProxyCluster c, int node) throws IOException {
        NodeAddress a = NodeAddress.parse(c.id(node));
        return LocalProxyClient.connect(a.host(), a.port(), RelayClientConfig.defaults().withStreamWindow(TASK_WINDOW));
    }

    @Test
    void aSourceWithoutProxyIsPeerUnreachableNotPeerLost() throws Exception {
        try (Socket nobody = TestPorts.refusing();
             ProxyCluster c = new ProxyCluster(dir, 1, ProxyConfig.defaults()); LocalProxyClient task = taskOn(c, 0)) {
            String nowhere = "127.0.0.1:" + nobody.getLocalPort();
            c.secrets().put(JOB, SECRET);
            RelayStream s = task.fetch(nowhere, JOB, map(0), 0, SECRET);
            // Refused at once on loopback: well before the header timeout, which would be PEER_LOST.
            FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(5, TimeUnit.SECONDS));
            assertEquals(ErrorCode.PEER_UNREACHABLE, e.code(), e.getMessage());
            assertTrue(e.retryable());
            assertTrue(e.getMessage().contains(nowhere), e.getMessage());
            assertEquals(1, task.counters().streamsFailed());
            assertEquals(0, c.proxy(0).relayStats().streamsCompleted());
            assertEquals(1, c.proxy(0).relayStats().streamsFailed());
            // The task connection survives a failed stream: a good fetch still works.
            MapOutputFiles f = c.outputs(0).write(JOB, map(1), 1, 50, 500, 3);
            assertArrayEquals(c.outputs(0).expectedSegment(f, 0),
                    ProxyCluster.readAll(task.fetch(c.id(0), JOB, map(1), 0, SECRET)));
        }
    }

    @Test
    void aWrongMacIsRefusedBySourceAndNoDataReachesTheTask() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults()); LocalProxyClient task = taskOn(c, 0)) {
            c.secrets().put(JOB, SECRET);
            c.outputs(1).write(JOB, map(0), 1, 200, 1000, 1);
            RelayStream s = task.fetch(c.id(1), JOB, map(0), 0, "not-the-secret".getBytes(StandardCharsets.UTF_8));
            FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(10, TimeUnit.SECONDS));
            assertEquals(ErrorCode.AUTHENTICATION_FAILED, e.code(), e.getMessage());
            assertFalse(e.retryable());
            assertThrows(FetchException.class, () -> s.data().read());
            assertEquals(0, s.received());
            assertEquals(0, task.counters().bytes());
            assertEquals(0, c.proxy(1).serverCounters().bytesSent());
            assertEquals(1, c.proxy(1).serverCounters().streamsRefused());
        }
    }

    @Test
    void losingTheLocalProxyFailsOpenStreamsRetryablyAndLaterFetchesReconnect() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults()); LocalProxyClient task = taskOn(c, 0)) {
            c.secrets().put(JOB, SECRET);
            List<MapOutputFiles> files = new ArrayList<>();
            List<RelayStream> open = new ArrayList<>();
            for (int m = 0; m < 4; m++) {
                files.add(c.outputs(1).write(JOB, map(m), 1, 300, 1000, m));
                open.add(task.fetch(c.id(1), JOB, map(m), 0, SECRET));
            }
            for (RelayStream s : open) {
                // Mid-stream, waiting for the task to read.
                waitUntil("first window of " + s, () -> s.received() == TASK_WINDOW);
            }
            NodeAddress local = NodeAddress.parse(c.id(0));
            c.proxy(0).close();
            for (RelayStream s : open) {
                FetchException e = assertThrows(FetchException.class, () -> ProxyCluster.readAll(s));
                assertEquals(ErrorCode.PEER_LOST, e.code(), e.getMessage());
                assertTrue(e.retryable());
                assertTrue(e.getMessage().contains("local proxy " + c.id(0)), e.getMessage());
            }
            // While the proxy is down a fetch fails retryably too (the reconnect is refused).
            RelayStream down = task.fetch(c.id(1), JOB, map(0), 0, SECRET);
            FetchException e = assertThrows(FetchException.class, () -> down.awaitHeader(10, TimeUnit.SECONDS));
            assertEquals(ErrorCode.PEER_LOST, e.code(), e.getMessage());
            // The node's proxy restarts on the same port: the next fetches reconnect and succeed.
            try (CourierProxy restarted = new CourierProxy(ProxyConfig.defaults().withPort(local.port()), c.secrets(),
                    c.outputs(0).locator())) {
                assertEquals(c.id(0), restarted.start());
                for (int m = 0; m < 4; m++) {
                    byte[] got = ProxyCluster.readAll(task.fetch(c.id(1), JOB, map(m), 0, SECRET));
                    assertArrayEquals(c.outputs(1).expectedSegment(files.get(m), 0), got);
                    c.outputs(1).verifyChecksum(got);
                }
                assertEquals(1, restarted.relayStats().taskConnections());
            }
        }
    }

    @Test
    void connectingToNoProxyFailsWithTheAddress() throws Exception {
        try (Socket nobody = TestPorts.refusing()) {
            int port = nobody.getLocalPort();
            ConnectException e = assertThrows(ConnectException.class,
                    () -> LocalProxyClient.connect("127.0.0.1", port, RelayClientConfig.defaults()));
            assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        }
    }

    @Test
    void cancellingATaskStreamCancelsItUpstream() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults()); LocalProxyClient task = taskOn(c, 0)) {
            c.secrets().put(JOB, SECRET);
            MapOutputFiles f = c.outputs(1).write(JOB, map(0), 1, 1000, 1000, 1);
            RelayStream s = task.fetch(c.id(1), JOB, map(0), 0, SECRET);
            waitUntil("first window", () -> s.received() == TASK_WINDOW);
            s.close();
            RelayStats relay = c.proxy(0).relayStats();
            waitUntil("the stream cancelled at the relay, its window returned",
                    () -> relay.streamsCancelled() == 1 && relay.outstandingBytes() == 0
                    && c.proxy(0).reservedBytes() == 0);
            assertEquals(TASK_WINDOW, c.proxy(1).serverCounters().bytesSent(), "the source stopped after one window");
            // The same connections carry the retry.
            assertArrayEquals(c.outputs(1).expectedSegment(f, 0),
                    ProxyCluster.readAll(task.fetch(c.id(1), JOB, map(0), 0, SECRET)));
            assertEquals(Long.valueOf(1), c.proxy(0).clientCounters().connectionsByPeer().get(c.id(1)));
        }
    }

    @Test
    void closingTheTaskClientCancelsItsStreamsAtTheRelay() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults())) {
            c.secrets().put(JOB, SECRET);
            c.outputs(1).write(JOB, map(0), 1, 1000, 1000, 1);
            LocalProxyClient task = taskOn(c, 0);
            RelayStream s = task.fetch(c.id(1), JOB, map(0), 0, SECRET);
            waitUntil("first window", () -> s.received() == TASK_WINDOW);
            task.close();
            FetchException e = assertThrows(FetchException.class, () -> ProxyCluster.readAll(s));
            assertTrue(e.retryable());
            RelayStats relay = c.proxy(0).relayStats();
            waitUntil("the stream cancelled at the relay, its window returned",
                    () -> relay.streamsCancelled() == 1 && relay.outstandingBytes() == 0
                    && c.proxy(0).reservedBytes() == 0);
            assertThrows(IllegalStateException.class, () -> task.fetch(c.id(1), JOB, map(0), 0, SECRET));
        }
    }
}
