package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.Eventually;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Four proxies on loopback; a reduce task on node A (node 0) fetches, through one {@link LocalProxyClient},
 * every map output of three jobs for six reducers from B, C, D and A itself: 3 × 16 × 6 = 288 segments from
 * six fetcher threads. Everything must arrive byte-identical and pass Hadoop's IFile checksum, over exactly
 * one proxy connection per node pair.
 */
class RelayLoopbackTest {
    private static final int NODES = 4;
    private static final int JOBS = 3;
    private static final int MAPS_PER_NODE = 4;
    private static final int REDUCERS = 6;
    private static final int TASK_WINDOW = 64 * 1024;

    @TempDir
    File dir;

    static String job(int j) {
        return "job_1700000000000_000" + (j + 1);
    }

    static String map(int j, int node, int m) {
        return String.format("attempt_1700000000000_000%d_m_%06d_0", j + 1, node * MAPS_PER_NODE + m);
    }

    static byte[] secret(int j) {
        return ("secret-" + j).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(120)
    void hundredsOfRelayedSegmentsArriveByteIdenticalOverOneConnectionPerNodePair() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, NODES, ProxyConfig.defaults())) {
            MapOutputFiles[][][] files = new MapOutputFiles[JOBS][NODES][MAPS_PER_NODE];
            for (int j = 0; j < JOBS; j++) {
                c.secrets().put(job(j), secret(j));
                for (int n = 0; n < NODES; n++) {
                    for (int m = 0; m < MAPS_PER_NODE; m++) {
                        // 40-80 records of ~600 B: segments of ~25-75 KB, several larger than half the window.
                        files[j][n][m] = c.outputs(n).write(job(j), map(j, n, m), REDUCERS, 40, 600,
                                j * 1000 + n * 100 + m);
                    }
                }
            }
            NodeAddress a = NodeAddress.parse(c.id(0));
            AtomicLong expectedBytes = new AtomicLong();
            try (LocalProxyClient task = LocalProxyClient.connect(a.host(), a.port(),
                    RelayClientConfig.defaults().withStreamWindow(TASK_WINDOW))) {
                ExecutorService fetchers = Executors.newFixedThreadPool(6);
                try {
                    List<Future<Integer>> done = new ArrayList<>();
                    // One job per task "reducer" (job j, partition r); each issues all 16 fetches, then reads them.
                    for (int j = 0; j < JOBS; j++) {
                        for (int r = 0; r < REDUCERS; r++) {
                            final int job = j;
                            final int reduce = r;
                            done.add(fetchers.submit(() -> {
                                List<RelayStream> streams = new ArrayList<>();
                                List<byte[]> expected = new ArrayList<>();
                                for (int n = 0; n < NODES; n++) {
                                    for (int m = 0; m < MAPS_PER_NODE; m++) {
                                        streams.add(task.fetch(c.id(n), job(job), map(job, n, m), reduce,
                                                secret(job)));
                                        expected.add(c.outputs(n).expectedSegment(files[job][n][m], reduce));
                                    }
                                }
                                for (int i = 0; i < streams.size(); i++) {
                                    byte[] got = ProxyCluster.readAll(streams.get(i));
                                    assertArrayEquals(expected.get(i), got, "segment " + streams.get(i));
                                    c.outputs(0).verifyChecksum(got);
                                    assertNotNull(streams.get(i).servedBy(), "route of " + streams.get(i));
                                    expectedBytes.addAndGet(got.length);
                                }
                                return streams.size();
                            }));
                        }
                    }
                    int segments = 0;
                    for (Future<Integer> f : done) {
                        segments += f.get(100, TimeUnit.SECONDS);
                    }
                    assertEquals(JOBS * NODES * MAPS_PER_NODE * REDUCERS, segments);
                } finally {
                    fetchers.shutdownNow();
                }

                RelayCounters counters = task.counters();
                assertEquals(JOBS * NODES * MAPS_PER_NODE * REDUCERS, counters.segments(), counters.toString());
                assertEquals(expectedBytes.get(), counters.bytes(), counters.toString());
                assertEquals(0, counters.streamsFailed(), counters.toString());
                assertEquals(NODES, counters.peerConnections(), "one serving connection per source node: "
                        + counters.peerConnectionIds());
                Set<String> sources = new HashSet<>();
                for (String id : counters.peerConnectionIds()) {
                    assertTrue(id.startsWith(c.id(0) + "->"), id);
                    sources.add(id.substring(id.indexOf("->") + 2, id.lastIndexOf('#')));
                }
                assertEquals(NODES, sources.size(), "connections to B, C, D and A itself: " + sources);
            }

            // Exactly one proxy connection per node pair, on both ends; the task connection is not a peer.
            Map<String, Long> expectedFromA = new TreeMap<>();
            for (int n = 0; n < NODES; n++) {
                expectedFromA.put(c.id(n), 1L);
            }
            assertEquals(expectedFromA, c.proxy(0).clientCounters().connectionsByPeer());
            for (int n = 0; n < NODES; n++) {
                Map<String, Long> accepted = c.proxy(n).serverCounters().connectionsByPeer();
                assertEquals(1, accepted.size(), "node " + n + " accepted " + accepted);
                assertEquals(Long.valueOf(1), accepted.get(c.id(0)), "node " + n + " accepted " + accepted);
            }
            RelayStats relay = c.proxy(0).relayStats();
            assertEquals(1, relay.taskConnections());
            assertEquals(JOBS * NODES * MAPS_PER_NODE * REDUCERS, relay.streamsCompleted());
            assertEquals(expectedBytes.get(), relay.bytesRelayed());
            assertEquals(0, relay.streamsFailed());
            assertTrue(relay.maxStreamOutstanding() <= TASK_WINDOW, "relay held " + relay.maxStreamOutstanding()
                    + " bytes of one stream, more than the task's window " + TASK_WINDOW);
            Eventually.waitUntil("windows returned and nothing outstanding at the relay",
                    () -> c.proxy(0).reservedBytes() == 0 && relay.outstandingBytes() == 0);
        }
    }
}
