package io.courier.shuffle.proxy.cluster;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.Eventually;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Four proxies on loopback, map outputs written by Hadoop's IFile.Writer/SpillRecord, three jobs with six
 * reducers each fetching every map of their job from every node: 3 × 6 × 16 = 288 concurrent streams.
 */
class LoopbackClusterTest {
    private static final int NODES = 4;
    private static final int JOBS = 3;
    private static final int MAPS_PER_NODE = 4;
    private static final int REDUCERS = 6;

    @TempDir
    File dir;

    private static String job(int j) {
        return "job_1700000000000_000" + (j + 1);
    }

    private static String map(int j, int node, int m) {
        return String.format("attempt_1700000000000_000%d_m_%06d_0", j + 1, node * MAPS_PER_NODE + m);
    }

    private static byte[] secret(int j) {
        return ("secret-" + j).getBytes(StandardCharsets.UTF_8);
    }

    private static final class Fetch {
        final SegmentStream stream;
        final byte[] expected;

        Fetch(SegmentStream stream, byte[] expected) {
            this.stream = stream;
            this.expected = expected;
        }
    }

    private MapOutputFiles[][][] writeOutputs(ProxyCluster c, int records, int valueBytes) throws Exception {
        MapOutputFiles[][][] files = new MapOutputFiles[JOBS][NODES][MAPS_PER_NODE];
        for (int j = 0; j < JOBS; j++) {
            c.secrets().put(job(j), secret(j));
            for (int n = 0; n < NODES; n++) {
                for (int m = 0; m < MAPS_PER_NODE; m++) {
                    files[j][n][m] = c.outputs(n).write(job(j), map(j, n, m), REDUCERS, records, valueBytes,
                            j * 1000 + n * 100 + m);
                }
            }
        }
        return files;
    }

    /** On both transports: NIO runs everywhere, epoll (the default where it loads) on Linux. */
    @ParameterizedTest(name = "transport {0}")
    @ValueSource(strings = {"nio", "epoll"})
    void hundredsOfConcurrentStreamsArriveByteIdenticalOverOneConnectionPerNodePair(String transport)
            throws Exception {
        assumeTrue(!transport.equals("epoll") || Epoll.isAvailable(),
                () -> "the native epoll transport does not load here: " + Epoll.unavailabilityCause());
        ProxyConfig cfg = ProxyConfig.defaults().withTransport(transport);
        assertEquals(transport, cfg.transport().name().toLowerCase(java.util.Locale.ROOT));
        try (ProxyCluster c = new ProxyCluster(dir, NODES, cfg)) {
            MapOutputFiles[][][] files = writeOutputs(c, 60, 400);
            List<Fetch> fetches = new ArrayList<>();
            // Reducer r of every job runs on node r % NODES and asks its local proxy for all maps of its job.
            for (int j = 0; j < JOBS; j++) {
                for (int r = 0; r < REDUCERS; r++) {
                    int local = r % NODES;
                    for (int n = 0; n < NODES; n++) {
                        for (int m = 0; m < MAPS_PER_NODE; m++) {
                            byte[] expected = c.outputs(n).expectedSegment(files[j][n][m], r);
                            fetches.add(new Fetch(c.proxy(local).fetch(c.id(n), job(j), map(j, n, m), r, secret(j)),
                                    expected));
                        }
                    }
                }
            }
            assertEquals(288, fetches.size());
            ExecutorService readers = Executors.newFixedThreadPool(24);
            try {
                List<Future<byte[]>> got = new ArrayList<>();
                for (Fetch f : fetches) {
                    got.add(readers.submit(() -> ProxyCluster.readAll(f.stream)));
                }
                long bytes = 0;
                for (int i = 0; i < fetches.size(); i++) {
                    byte[] b = got.get(i).get(60, TimeUnit.SECONDS);
                    assertArrayEquals(fetches.get(i).expected, b, "segment " + fetches.get(i).stream);
                    c.outputs(0).verifyChecksum(b);
                    bytes += b.length;
                }
                assertTrue(bytes > 10_000_000, "test must move a meaningful amount of data: " + bytes);
            } finally {
                readers.shutdownNow();
            }
            for (int i = 0; i < NODES; i++) {
                Map<String, Long> opened = c.proxy(i).clientCounters().connectionsByPeer();
                Map<String, Long> accepted = c.proxy(i).serverCounters().connectionsByPeer();
                assertEquals(NODES, opened.size(), "node " + i + " opened " + opened);
                assertEquals(NODES, accepted.size(), "node " + i + " accepted " + accepted);
                for (int k = 0; k < NODES; k++) {
                    assertEquals(Long.valueOf(1), opened.get(c.id(k)), "connections " + i + "->" + k);
                    assertEquals(Long.valueOf(1), accepted.get(c.id(k)), "connections " + k + "->" + i);
                }
                // A reader's EOF returns its window on the event loop, after the reader already has its bytes.
                CourierProxy proxy = c.proxy(i);
                Eventually.waitUntil("every window returned on node " + i, () -> proxy.reservedBytes() == 0);
            }
        }
    }

    @Test
    void aStalledConsumerDelaysNoOtherStream() throws Exception {
        int window = 64 * 1024;
        ProxyConfig cfg = ProxyConfig.defaults().withStreamWindow(window);
        try (ProxyCluster c = new ProxyCluster(dir, 2, cfg)) {
            c.secrets().put(job(0), secret(0));
            // One large output on node 1; node 0's reducers fetch everything over the one 0->1 connection.
            List<MapOutputFiles> maps = new ArrayList<>();
            for (int m = 0; m < 8; m++) {
                maps.add(c.outputs(1).write(job(0), map(0, 1, m), 16, m == 0 ? 300 : 40, 1000, m));
            }
            SegmentStream stalled = c.proxy(0).fetch(c.id(1), job(0), map(0, 1, 0), 0, secret(0));
            byte[] stalledExpected = c.outputs(1).expectedSegment(maps.get(0), 0);
            assertTrue(stalledExpected.length > 4 * window, "stalled segment must exceed its window");
            List<Fetch> others = new ArrayList<>();
            for (int m = 0; m < 8; m++) {
                for (int r = 0; r < 16; r++) {
                    if (m == 0 && r == 0) {
                        continue;
                    }
                    others.add(new Fetch(c.proxy(0).fetch(c.id(1), job(0), map(0, 1, m), r, secret(0)),
                            c.outputs(1).expectedSegment(maps.get(m), r)));
                }
            }
            ExecutorService readers = Executors.newFixedThreadPool(16);
            long start = System.nanoTime();
            try {
                List<Future<byte[]>> got = new ArrayList<>();
                for (Fetch f : others) {
                    got.add(readers.submit(() -> ProxyCluster.readAll(f.stream)));
                }
                for (int i = 0; i < others.size(); i++) {
                    // Bound: all 127 other streams (~6 MB) finish within 20 s while one consumer reads nothing;
                    // unstalled this takes well under 2 s on loopback, so a head-of-line block would show.
                    assertArrayEquals(others.get(i).expected, got.get(i).get(20, TimeUnit.SECONDS));
                }
            } finally {
                readers.shutdownNow();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("stalled-consumer test: %d other streams finished in %.3f s%n", others.size(), seconds);
            assertTrue(seconds < 20, "others took " + seconds + " s");
            // The stalled stream holds exactly its window: the sender stopped when the credit ran out.
            assertEquals(window, stalled.received());
            assertEquals(1L, (long) c.proxy(0).clientCounters().connectionsByPeer().get(c.id(1)));
            // And it resumes once its consumer reads.
            byte[] b = ProxyCluster.readAll(stalled);
            assertTrue(Arrays.equals(stalledExpected, b));
            c.outputs(1).verifyChecksum(b);
        }
    }

    @Test
    void callbackConsumersReceiveTheSameBytesOnTheEventLoop() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults())) {
            c.secrets().put(job(0), secret(0));
            MapOutputFiles f = c.outputs(1).write(job(0), map(0, 1, 0), 3, 300, 1000, 11);
            List<java.util.concurrent.CompletableFuture<byte[]>> results = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
                java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
                c.proxy(0).fetch(c.id(1), job(0), map(0, 1, 0), r, secret(0),
                        new io.courier.shuffle.proxy.client.SegmentConsumer() {
                            @Override
                            public void onHeader(io.courier.shuffle.proxy.client.SegmentHeader header) {
                            }

                            @Override
                            public void onData(java.nio.ByteBuffer data) {
                                byte[] b = new byte[data.remaining()];
                                data.get(b);
                                sink.write(b, 0, b.length);
                            }

                            @Override
                            public void onComplete() {
                                result.complete(sink.toByteArray());
                            }

                            @Override
                            public void onFailure(io.courier.shuffle.proxy.client.FetchException failure) {
                                result.completeExceptionally(failure);
                            }
                        });
                results.add(result);
            }
            for (int r = 0; r < 3; r++) {
                byte[] got = results.get(r).get(30, TimeUnit.SECONDS);
                assertArrayEquals(c.outputs(1).expectedSegment(f, r), got);
                c.outputs(1).verifyChecksum(got);
            }
            Eventually.waitUntil("completed callback fetches returning their windows",
                    () -> c.proxy(0).reservedBytes() == 0);
        }
    }

    @Test
    void hadoopsIFileInputStreamVerifiesTheSegmentStreamDirectly() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults())) {
            c.secrets().put(job(0), secret(0));
            c.outputs(1).write(job(0), map(0, 1, 0), 2, 400, 1000, 21);
            SegmentStream s = c.proxy(0).fetch(c.id(1), job(0), map(0, 1, 0), 1, secret(0));
            long length = s.awaitHeader(30, TimeUnit.SECONDS).compressedLength();
            assertTrue(length > 4 * 64 * 1024, "segment must span several blocks: " + length);
            // What MapOutput.shuffle does with the fetcher's stream: checksum verified while streaming.
            c.outputs(1).verifyStreaming(s.data(), length);
        }
    }
}
