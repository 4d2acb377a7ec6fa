package io.courier.shuffle.proxy.cluster;

import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.SegmentConsumer;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The block scheduler at work on one shared connection (node 1 serves, node 0's reducers fetch). */
class SchedulingOnTheWireTest {
    private static final String HIGH = "job_1700000000000_0001";
    private static final String LOW = "job_1700000000000_0002";
    private static final byte[] SECRET = "s".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;

    private static String map(String job, int m) {
        return "attempt_" + job.substring(4) + "_m_00000" + m + "_0";
    }

    /** A stream and when its consumer saw its last byte. */
    private static final class Timed {
        final SegmentStream stream;
        final byte[] expected;
        volatile long endNanos;

        Timed(SegmentStream stream, byte[] expected) {
            this.stream = stream;
            this.expected = expected;
        }
    }

    private List<Timed> fetchAll(ProxyCluster c, String job, List<MapOutputFiles> maps) throws Exception {
        List<byte[]> expected = new ArrayList<>();
        for (MapOutputFiles f : maps) {
            expected.add(c.outputs(1).expectedSegment(f, 0));
        }
        List<Timed> out = new ArrayList<>();
        for (int m = 0; m < maps.size(); m++) {
            out.add(new Timed(c.proxy(0).fetch(c.id(1), job, map(job, m), 0, SECRET), expected.get(m)));
        }
        return out;
    }

    private List<MapOutputFiles> write(ProxyCluster c, String job, int maps, int records, int valueBytes)
            throws Exception {
        c.secrets().put(job, SECRET);
        List<MapOutputFiles> files = new ArrayList<>();
        for (int m = 0; m < maps; m++) {
            files.add(c.outputs(1).write(job, map(job, m), 1, records, valueBytes, job.hashCode() + m));
        }
        return files;
    }

    /**
     * The high-order coflow asks first and is the larger one; the low-order one asks once the sender has admitted
     * the high-order streams. Shared fairly (the sender without a decision) the small low-order segments would
     * finish long before the large ones; under the order no low-order block may arrive before the last
     * high-order one. The high-order segments fit in their windows, so they never wait for credit (with credit
     * missing, work conservation rightly lets a lower order use the connection), and they are several times
     * larger than what the socket buffers and the send queue can hold, so most of them is still to be scheduled
     * when the low-order fetches arrive. Bytes are consumed on the fetching proxy's event loop and stamped there:
     * the stamps are in the order the blocks left the sender, whatever the scheduling of reader threads.
     */
    @Test
    void withAnOrderTheHigherOrderCoflowsBlocksGoFirst() throws Exception {
        ProxyConfig config = ProxyConfig.defaults().withStreamWindow(16 << 20).withConnectionMaxInFlight(128 << 20);
        try (ProxyCluster c = new ProxyCluster(dir, 2, config)) {
            List<MapOutputFiles> high = write(c, HIGH, 3, 5000, 1500);
            List<MapOutputFiles> low = write(c, LOW, 3, 300, 1000);
            Map<FlowId, Integer> prio = new HashMap<>();
            prio.put(FlowId.of(1), 0);
            prio.put(FlowId.of(2), 1);
            c.proxy(1).scheduler().apply(Decision.ofOrder(Arrays.asList(CoflowId.of(1), CoflowId.of(2)), prio),
                    Arrays.asList(new FlowBinding(FlowId.of(1), HIGH, c.id(0)),
                            new FlowBinding(FlowId.of(2), LOW, c.id(0))));
            List<byte[]> highExpected = expected(c, high);
            List<byte[]> lowExpected = expected(c, low);
            for (byte[] e : highExpected) {
                assertTrue(e.length > 6 << 20 && e.length < config.streamWindow(), "high segment: " + e.length);
            }
            List<Arrival> highStreams = fetchOnTheLoop(c, HIGH, high, highExpected);
            for (Arrival a : highStreams) {
                a.header.get(30, TimeUnit.SECONDS);
            }
            List<Arrival> lowStreams = fetchOnTheLoop(c, LOW, low, lowExpected);
            long lastHigh = 0;
            for (Arrival a : highStreams) {
                lastHigh = Math.max(lastHigh, a.end());
            }
            for (Arrival a : lowStreams) {
                a.end();
                assertTrue(a.firstData > lastHigh, "a low-order block arrived before the high-order coflow's last");
            }
        }
    }

    private static List<byte[]> expected(ProxyCluster c, List<MapOutputFiles> maps) throws Exception {
        List<byte[]> out = new ArrayList<>();
        for (MapOutputFiles f : maps) {
            out.add(c.outputs(1).expectedSegment(f, 0));
        }
        return out;
    }

    private List<Arrival> fetchOnTheLoop(ProxyCluster c, String job, List<MapOutputFiles> maps,
            List<byte[]> expected) {
        List<Arrival> out = new ArrayList<>();
        for (int m = 0; m < maps.size(); m++) {
            Arrival a = new Arrival(expected.get(m));
            c.proxy(0).fetch(c.id(1), job, map(job, m), 0, SECRET, a);
            out.add(a);
        }
        return out;
    }

    /** A segment consumed on the fetching proxy's event loop: its header, and when its first and last data came. */
    private static final class Arrival implements SegmentConsumer {
        private final byte[] expected;
        private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        private final CompletableFuture<Long> end = new CompletableFuture<>();
        final CompletableFuture<SegmentHeader> header = new CompletableFuture<>();
        /** When the first data arrived (0: none); written on the event loop, read after {@link #end}. */
        volatile long firstData;

        Arrival(byte[] expected) {
            this.expected = expected;
        }

        @Override
        public void onHeader(SegmentHeader h) {
            header.complete(h);
        }

        @Override
        public void onData(ByteBuffer data) {
            if (firstData == 0) {
                firstData = System.nanoTime();
            }
            byte[] b = new byte[data.remaining()];
            data.get(b);
            sink.write(b, 0, b.length);
        }

        @Override
        public void onComplete() {
            long at = System.nanoTime();
            if (Arrays.equals(expected, sink.toByteArray())) {
                end.complete(at);
            } else {
                end.completeExceptionally(new AssertionError("segment bytes differ"));
            }
        }

        @Override
        public void onFailure(FetchException failure) {
            header.completeExceptionally(failure);
            end.completeExceptionally(failure);
        }

        /** When the last byte arrived. */
        long end() throws Exception {
            return end.get(60, TimeUnit.SECONDS);
        }
    }

    private static void readAll(List<Timed> a, List<Timed> b) throws Exception {
        List<Timed> all = new ArrayList<>(a);
        all.addAll(b);
        ExecutorService readers = Executors.newFixedThreadPool(all.size());
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (Timed t : all) {
                fs.add(readers.submit(() -> {
                    byte[] got = ProxyCluster.readAll(t.stream);
                    t.endNanos = System.nanoTime();
                    assertArrayEquals(t.expected, got);
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            readers.shutdownNow();
        }
    }

    @Test
    void withRatesEachStreamGetsItsShareOfTheUnifiedRate() throws Exception {
        double rateHigh = 18e6;
        double rateLow = 6e6;
        // A 1 MiB window: a reader descheduled for tens of ms on a busy host must not starve its stream of
        // credit, or the shares measured would reflect the host, not the scheduler.
        ProxyConfig cfg = ProxyConfig.defaults().withStreamWindow(1 << 20);
        try (ProxyCluster c = new ProxyCluster(dir, 2, cfg)) {
            List<MapOutputFiles> hi = write(c, HIGH, 2, 4000, 1500);
            List<MapOutputFiles> lo = write(c, LOW, 2, 4000, 1500);
            Map<FlowId, Double> rates = new HashMap<>();
            rates.put(FlowId.of(1), rateHigh);
            rates.put(FlowId.of(2), rateLow);
            c.proxy(1).scheduler().apply(Decision.ofRates(rates),
                    Arrays.asList(new FlowBinding(FlowId.of(1), HIGH, c.id(0)),
                            new FlowBinding(FlowId.of(2), LOW, c.id(0))));
            List<Timed> highStreams = fetchAll(c, HIGH, hi);
            List<Timed> lowStreams = fetchAll(c, LOW, lo);
            List<Timed> streams = Arrays.asList(highStreams.get(0), lowStreams.get(0), highStreams.get(1),
                    lowStreams.get(1));
            Shares shares = readAllMeasuringShares(streams);
            long[] atFirstEnd = shares.bytes;
            double elapsed = shares.seconds;
            long total = 0;
            for (long b : atFirstEnd) {
                total += b;
            }
            // Streams of HIGH (indices 0, 2) should each get 18/24/2 = 37.5 % of the bytes, LOW (1, 3) 12.5 %.
            double[] share = {0.375, 0.125, 0.375, 0.125};
            StringBuilder report = new StringBuilder();
            for (int i = 0; i < streams.size(); i++) {
                double got = atFirstEnd[i] / (double) total;
                report.append(String.format("stream %d: %.1f MB/s (share %.3f, expected %.3f)%n", i,
                        atFirstEnd[i] / elapsed / 1e6, got, share[i]));
            }
            System.out.print(report);
            for (int i = 0; i < streams.size(); i++) {
                double got = atFirstEnd[i] / (double) total;
                // ±20 % relative: stride scheduling keeps byte shares within one 64 KiB block per stream while
                // all streams have credit; the smallest share measured here is >= 2 MB (>= 30 blocks), so block
                // granularity and the odd credit round trip move it by a few percent, well inside the bound.
                assertEquals(share[i], got, share[i] * 0.2, report.toString());
            }
            double measured = total / elapsed;
            // The token bucket never lets the connection run faster than the unified rate (plus a 256 KiB burst
            // and a block of debt); the lower bound is loose because loopback on a shared CI host can be slow.
            assertTrue(measured < (rateHigh + rateLow) * 1.15, "unified rate exceeded: " + measured);
            assertTrue(measured > (rateHigh + rateLow) * 0.4, "connection far below its rate: " + measured);
            assertEquals(4, streams.size());
        }
    }

    /** Bytes each stream received in steady state, and over how many seconds. */
    private static final class Shares {
        final long[] bytes;
        final double seconds;

        Shares(long[] bytes, double seconds) {
            this.bytes = bytes;
            this.seconds = seconds;
        }

        double share(int i) {
            long total = 0;
            for (long b : bytes) {
                total += b;
            }
            return bytes[i] / (double) total;
        }
    }

    /**
     * Reads every stream to its end (checking its bytes) and measures in steady state: from 200 ms after the
     * readers start (all streams open, initial windows used up) to the moment the first stream completes.
     */
    private static Shares readAllMeasuringShares(List<Timed> streams) throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(streams.size());
        long[] atStart = new long[streams.size()];
        long[] atFirstEnd = new long[streams.size()];
        double elapsed;
        try {
            ExecutorCompletionService<Integer> done = new ExecutorCompletionService<>(readers);
            for (int i = 0; i < streams.size(); i++) {
                final int k = i;
                done.submit(() -> {
                    assertArrayEquals(streams.get(k).expected, ProxyCluster.readAll(streams.get(k).stream));
                    return k;
                });
            }
            Thread.sleep(200);
            long start = System.nanoTime();
            for (int i = 0; i < streams.size(); i++) {
                atStart[i] = streams.get(i).stream.received();
            }
            done.take().get();
            elapsed = (System.nanoTime() - start) / 1e9;
            for (int i = 0; i < streams.size(); i++) {
                atFirstEnd[i] = streams.get(i).stream.received() - atStart[i];
            }
            for (int i = 1; i < streams.size(); i++) {
                done.take().get(60, TimeUnit.SECONDS);
            }
        } finally {
            readers.shutdownNow();
        }
        return new Shares(atFirstEnd, elapsed);
    }

    /**
     * Rate-based schedulers such as Varys (MADD: rate = remaining / Γ) give a flow a slightly different rate at
     * every decision, many times per second, while a slow pair sends only a few blocks in between. Each re-plan
     * must keep what the streams have sent relative to their weights: restarting every stream at the rank's clock
     * hands the next block to whichever stream comes first in the connection, so the small share (here the job
     * that asked first) took most of the blocks. Found in the mini-cluster benchmark's Varys rounds, where each
     * proxy re-planned about three times a second (docs/benchmarks.md); here a re-plan comes every millisecond,
     * about every quarter block.
     */
    @Test
    void rateSharesHoldWhenTheRatesMoveAtEveryDecision() throws Exception {
        double rateHigh = 12e6;
        double rateLow = 4e6;
        ProxyConfig cfg = ProxyConfig.defaults().withStreamWindow(1 << 20);
        try (ProxyCluster c = new ProxyCluster(dir, 2, cfg)) {
            List<MapOutputFiles> lo = write(c, LOW, 2, 4000, 1500);
            List<MapOutputFiles> hi = write(c, HIGH, 2, 4000, 1500);
            List<FlowBinding> bindings = Arrays.asList(new FlowBinding(FlowId.of(1), HIGH, c.id(0)),
                    new FlowBinding(FlowId.of(2), LOW, c.id(0)));
            AtomicBoolean replanning = new AtomicBoolean(true);
            Thread replanner = new Thread(() -> {
                for (long n = 0; replanning.get(); n++) {
                    // Both rates move by 0.1 % each time, as remaining bytes / Γ do; the ratio stays 3 : 1.
                    double f = 1 + (n % 2) * 0.001;
                    Map<FlowId, Double> rates = new HashMap<>();
                    rates.put(FlowId.of(1), rateHigh * f);
                    rates.put(FlowId.of(2), rateLow * f);
                    c.proxy(1).scheduler().apply(Decision.ofRates(rates), bindings);
                    LockSupport.parkNanos(1_000_000L);
                }
            }, "replanner");
            replanner.setDaemon(true);
            replanner.start();
            Shares measured;
            try {
                // The low-share job asks first: its streams come first in the connection's order.
                List<Timed> lowStreams = fetchAll(c, LOW, lo);
                List<Timed> highStreams = fetchAll(c, HIGH, hi);
                measured = readAllMeasuringShares(Arrays.asList(lowStreams.get(0), lowStreams.get(1),
                        highStreams.get(0), highStreams.get(1)));
            } finally {
                replanning.set(false);
                replanner.join(5_000);
            }
            double low = measured.share(0) + measured.share(1);
            String report = String.format("low-share job got %.3f of %,d bytes in %.2f s (expected 0.250)", low,
                    measured.bytes[0] + measured.bytes[1] + measured.bytes[2] + measured.bytes[3], measured.seconds);
            System.out.println(report);
            // ±20 % relative, as for steady rates above; the bug gave the low-share job most of the bytes.
            assertEquals(0.25, low, 0.05, report);
        }
    }

    @Test
    void maxNumOneServesTheLargestPeerFirstAndTheOtherWhenItIsDone() throws Exception {
        ProxyConfig cfg = ProxyConfig.defaults().withMaxNum(1);
        try (ProxyCluster c = new ProxyCluster(dir, 3, cfg)) {
            // Node 0 serves: a large coflow to node 1, a small one to node 2. No decision: importance is size.
            c.secrets().put(HIGH, SECRET);
            // One stream per pair, so the plan is rebuilt only when the small pair's stream starts (the large
            // pair then has ~6 MB pending against ~1 MB) and when the large pair's stream ends.
            MapOutputFiles big = c.outputs(0).write(HIGH, map(HIGH, 0), 1, 2500, 1500, 1);
            MapOutputFiles small = c.outputs(0).write(HIGH, map(HIGH, 5), 3, 400, 1500, 9);
            byte[] bigExpected = c.outputs(0).expectedSegment(big, 0);
            byte[] smallExpected = c.outputs(0).expectedSegment(small, 2);
            assertTrue(bigExpected.length > 4 * smallExpected.length);
            SegmentStream toOne = c.proxy(1).fetch(c.id(0), HIGH, map(HIGH, 0), 0, SECRET);
            toOne.awaitHeader(10, TimeUnit.SECONDS);
            SegmentStream toTwo = c.proxy(2).fetch(c.id(0), HIGH, map(HIGH, 5), 2, SECRET);
            // Node 0 writes a stream's header in the event-loop task that adds the stream to its sender, so once
            // the header is here both replans (node 2's connection, its stream) have happened while nobody read
            // the large stream: it still has ~6 MB pending.
            toTwo.awaitHeader(10, TimeUnit.SECONDS);
            ExecutorService bigReader = Executors.newSingleThreadExecutor();
            try {
                Future<byte[]> bigRead = bigReader.submit(() -> ProxyCluster.readAll(toOne));
                InputStream smallData = toTwo.data();
                ByteArrayOutputStream smallRead = new ByteArrayOutputStream();
                int first = smallData.read();
                // Judged at the sender, not by when the two readers finish (that depends on how their threads
                // are scheduled, and failed now and then on a loaded CI host): the small pair's first byte may
                // leave node 0 only after the large stream has ended there.
                long servedBeforeSmall = c.proxy(0).serverCounters().streamsServed();
                assertTrue(first >= 0, "the small segment is empty");
                smallRead.write(first);
                byte[] buf = new byte[16 * 1024];
                for (int n; (n = smallData.read(buf)) >= 0; ) {
                    smallRead.write(buf, 0, n);
                }
                assertArrayEquals(bigExpected, bigRead.get(60, TimeUnit.SECONDS));
                assertArrayEquals(smallExpected, smallRead.toByteArray());
                assertEquals(1, servedBeforeSmall, "with MaxNum = 1 the smaller pair waits for the larger one");
            } finally {
                bigReader.shutdownNow();
            }
        }
    }

    @Test
    void spareMaxNumSplitsALargePairOverMoreConnections() throws Exception {
        // MaxNum 4, MinSize 1 MiB: one pair with > 2 MiB pending is split into 4 network flows (SCHEDULERS.md
        // §11), so the sender asks the fetching proxy for 4 connections and new fetches spread over them.
        ProxyConfig cfg = ProxyConfig.defaults().withMaxNum(4).withMinSize(1 << 20);
        try (ProxyCluster c = new ProxyCluster(dir, 2, cfg)) {
            c.secrets().put(HIGH, SECRET);
            List<MapOutputFiles> maps = new ArrayList<>();
            for (int m = 0; m < 8; m++) {
                maps.add(c.outputs(1).write(HIGH, map(HIGH, m), 1, 800, 1500, m));
            }
            List<Timed> first = new ArrayList<>();
            for (int m = 0; m < 2; m++) {
                first.add(new Timed(c.proxy(0).fetch(c.id(1), HIGH, map(HIGH, m), 0, SECRET),
                        c.outputs(1).expectedSegment(maps.get(m), 0)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (c.proxy(0).connectionsWanted(c.id(1)) != 4 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(4, c.proxy(0).connectionsWanted(c.id(1)));
            List<Timed> rest = new ArrayList<>();
            for (int m = 2; m < 8; m++) {
                rest.add(new Timed(c.proxy(0).fetch(c.id(1), HIGH, map(HIGH, m), 0, SECRET),
                        c.outputs(1).expectedSegment(maps.get(m), 0)));
            }
            readAll(first, rest);
            assertEquals(4L, (long) c.proxy(0).clientCounters().connectionsByPeer().get(c.id(1)));
            assertEquals(4L, (long) c.proxy(1).serverCounters().connectionsByPeer().get(c.id(0)));
        }
    }
}
