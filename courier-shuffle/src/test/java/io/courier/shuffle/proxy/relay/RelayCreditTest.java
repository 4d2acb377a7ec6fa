package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.courier.shuffle.proxy.testing.Eventually.waitUntil;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End-to-end credit through the relay: a task stream that is never read holds one task window at the source
 * and in the relay, and does not stop the task's other streams on the same connections.
 */
class RelayCreditTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final int TASK_WINDOW = 32 * 1024;

    @TempDir
    File dir;

    private static String map(int m) {
        return String.format("attempt_1700000000000_0001_m_%06d_0", m);
    }

    @Test
    @Timeout(60) // the bound on the other streams: they all complete well within it
    void anUnreadStreamStopsOnlyItselfAndTheRelayHoldsAtMostItsWindow() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults())) {
            c.secrets().put(JOB, SECRET);
            // Map 0's partition 0 is ~2 MB (many windows); maps 1..20 are the other reducers' work.
            MapOutputFiles big = c.outputs(1).write(JOB, map(0), 1, 1500, 1000, 1);
            List<MapOutputFiles> small = new ArrayList<>();
            for (int m = 1; m <= 20; m++) {
                small.add(c.outputs(1).write(JOB, map(m), 1, 100, 1000, m));
            }
            long expectedOthers = 0;
            NodeAddress a = NodeAddress.parse(c.id(0));
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(),
                    RelayClientConfig.defaults().withStreamWindow(TASK_WINDOW))) {
                RelayStream stuck = task.fetch(c.id(1), JOB, map(0), 0, SECRET);
                SegmentHeader h = stuck.awaitHeader(10, TimeUnit.SECONDS);
                assertTrue(h.compressedLength() > 20L * TASK_WINDOW, "the stuck segment spans many windows: " + h);
                waitUntil("the stuck stream's first window", () -> stuck.received() == TASK_WINDOW);

                ExecutorService readers = Executors.newFixedThreadPool(4);
                try {
                    List<Future<byte[]>> others = new ArrayList<>();
                    for (int m = 1; m <= 20; m++) {
                        RelayStream s = task.fetch(c.id(1), JOB, map(m), 0, SECRET);
                        others.add(readers.submit(() -> ProxyCluster.readAll(s)));
                    }
                    for (int m = 1; m <= 20; m++) {
                        byte[] got = others.get(m - 1).get(30, TimeUnit.SECONDS);
                        byte[] want = c.outputs(1).expectedSegment(small.get(m - 1), 0);
                        assertArrayEquals(want, got);
                        expectedOthers += got.length;
                    }
                } finally {
                    readers.shutdownNow();
                }

                // The other streams finished while the stuck one was never read: it still has exactly one window,
                // the source sent nothing more for it, and that window is all the relay has outstanding.
                assertEquals(TASK_WINDOW, stuck.received());
                RelayStats relay = c.proxy(0).relayStats();
                waitUntil("only the stuck window outstanding", () -> relay.outstandingBytes() == TASK_WINDOW);
                assertTrue(relay.maxStreamOutstanding() <= TASK_WINDOW, "relay held " + relay.maxStreamOutstanding());
                assertEquals(expectedOthers + TASK_WINDOW, c.proxy(1).serverCounters().bytesSent(),
                        "the source sent the other segments plus one window of the stuck one");

                // Reading it now completes it, byte-identical.
                byte[] got = ProxyCluster.readAll(stuck);
                assertArrayEquals(c.outputs(1).expectedSegment(big, 0), got);
                c.outputs(1).verifyChecksum(got);
                assertTrue(relay.maxStreamOutstanding() <= TASK_WINDOW, "relay held " + relay.maxStreamOutstanding());
                waitUntil("windows returned", () -> relay.outstandingBytes() == 0 && c.proxy(0).reservedBytes() == 0);
                assertEquals(21, task.counters().segments());
            }
        }
    }

    @Test
    @Timeout(60)
    void aTaskWindowLargerThanTheRelaysOwnWindowStillFlows() throws Exception {
        // The task returns credit after half of ITS window; a relay that capped the source's credit at its own
        // (smaller) window would wait for credit that never comes.
        ProxyConfig small = ProxyConfig.defaults().withStreamWindow(16 * 1024);
        try (ProxyCluster c = new ProxyCluster(dir, 2, small)) {
            c.secrets().put(JOB, SECRET);
            MapOutputFiles big = c.outputs(1).write(JOB, map(0), 1, 1000, 1000, 1);
            NodeAddress a = NodeAddress.parse(c.id(0));
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(),
                    RelayClientConfig.defaults().withStreamWindow(256 * 1024))) {
                byte[] got = ProxyCluster.readAll(task.fetch(c.id(1), JOB, map(0), 0, SECRET));
                assertArrayEquals(c.outputs(1).expectedSegment(big, 0), got);
                assertTrue(c.proxy(0).relayStats().maxStreamOutstanding() <= 256 * 1024);
            }
        }
    }

    @Test
    void relayClientConfigRejectsBadValues() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RelayClientConfig.defaults().withStreamWindow(100));
        assertTrue(e.getMessage().contains("stream window") && e.getMessage().contains("100"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RelayClientConfig.defaults().withStreamWindow(RelayClientConfig.MAX_STREAM_WINDOW + 1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RelayClientConfig.defaults().withMaxInFlight(1000));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RelayClientConfig.defaults().withConnectTimeoutMillis(0));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RelayClientConfig.defaults().withHeaderTimeoutMillis(0));
        RelayClientConfig ok = RelayClientConfig.defaults().withStreamWindow(1 << 20);
        assertEquals(1 << 20, ok.streamWindow());
        assertTrue(ok.maxInFlight() >= ok.streamWindow());
    }
}
