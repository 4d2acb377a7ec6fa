package io.courier.shuffle.proxy.soak;

import io.courier.shuffle.proxy.ProxyConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hours of a proxy's life compressed into a configurable run ({@code -Dcourier.soak.seconds}, 20 s by default;
 * {@code bench/proxy-soak.sh MINUTES} for a long one): four proxies on loopback, jobs added and removed, reducers
 * fetching through relay connections, stalling, cancelling and dropping connections, proxies restarted one after
 * another (see {@link SoakWorkload}). Every segment must arrive byte-identical to the map output file, and once
 * the proxies are closed the JVM must be back where it started: the same threads (by pool name), the same open
 * file descriptors (within 2), no pooled Netty buffer still allocated, no buffer leak reported by Netty's
 * PARANOID leak detector, Netty's direct memory and the heap after GC within a stated bound.
 */
class ProxySoakTest {
    static final int NODES = 4;
    static final int FD_TOLERANCE = 2;
    /** Heap after GC may grow by this much over the run (it measures ~10 MiB; a leak per segment would not fit). */
    static final long HEAP_GROWTH_BOUND = 64L << 20;

    @TempDir
    File dir;

    @Test
    void proxiesUnderChurnLeakNothingAndDeliverEveryByte() throws Exception {
        long seconds = Long.getLong("courier.soak.seconds", 20);
        long restartEvery = Long.getLong("courier.soak.restart-every-ms", 3_000);
        assertTimeoutPreemptively(Duration.ofSeconds(seconds + 300), () -> soak(seconds, restartEvery));
    }

    /** The leak check itself: a buffer dropped without release must be reported. */
    @Test
    void theLeakRecorderSeesABufferThatWasNeverReleased() throws Exception {
        try (NettyLeakRecorder leaks = new NettyLeakRecorder()) {
            dropWithoutRelease();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            List<String> seen = leaks.collectLeaks();
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                seen = leaks.collectLeaks();
            }
            assertTrue(!seen.isEmpty(), "PARANOID leak detection reported nothing for a dropped buffer");
        }
    }

    private static void dropWithoutRelease() {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(128);
        b.writeLong(42); // deliberately never released
    }

    private void soak(long seconds, long restartEvery) throws Exception {
        ProxyConfig config = ProxyConfig.defaults().withHost("127.0.0.1").withBindHost("127.0.0.1")
                .withStreamWindow(32 * 1024).withIoThreads(2);
        try (NettyLeakRecorder leaks = new NettyLeakRecorder()) {
            // Warm-up without restarts: JVM- and Netty-wide singletons (allocator, global executor, leak
            // detector's queue) start lazily and stay; the baseline is taken after they exist.
            File warm = new File(dir, "warm-up");
            try (RestartableProxies p = new RestartableProxies(warm, NODES, config)) {
                new SoakWorkload(p, warm, 0, 1).run(1_000);
            }
            ResourceSnapshot before = settle(null);
            File soakDir = new File(dir, "soak");
            long t0 = System.nanoTime();
            SoakWorkload w;
            int restarts;
            int bindRetries;
            try (RestartableProxies p = new RestartableProxies(soakDir, NODES, config)) {
                w = new SoakWorkload(p, soakDir, restartEvery, 42);
                w.run(TimeUnit.SECONDS.toMillis(seconds));
                restarts = p.restarts();
                bindRetries = p.bindRetries();
            }
            long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            ResourceSnapshot after = settle(before);
            List<String> leaked = leaks.collectLeaks();
            String summary = String.format(Locale.ROOT, "proxy soak: %d s (wall %.1f s), %d jobs created / %d"
                    + " removed, %d reduce tasks, %d segments (%.1f MiB) byte-identical, %d retries, %d proxy"
                    + " restarts (%d binds retried), %d stalls, %d cancels, %d dropped connections, %d late fetches for finished jobs"
                    + " rejected, max heap after GC during the run %.1f MiB%n  before: %s%n  after:  %s", seconds,
                    wall / 1000.0, w.jobsCreated.get(), w.jobsRemoved.get(), w.tasks.get(), w.segments.get(),
                    w.bytes.get() / 1048576.0, w.retries.get(), restarts, bindRetries, w.stalls.get(), w.cancels.get(),
                    w.abandons.get(), w.finishedJobFetchesRejected.get(), w.maxHeapAfterGc.get() / 1048576.0,
                    before, after);
            System.out.println(summary);
            writeReport(summary);

            assertEquals(0, w.errors().size(), () -> "soak errors: " + w.errors());
            assertEquals(0, w.restartFailures.get(), () -> "a proxy could not be restarted: " + w.restartFailure);
            assertTrue(w.segments.get() > 0 && w.jobsRemoved.get() >= 2, () -> "the soak moved too little: " + summary);
            assertEquals(w.jobsCreated.get(), w.jobsRemoved.get(), "every job created was removed");
            assertTrue(restartEvery <= 0 || seconds * 1000 < 2 * restartEvery || restarts > 0,
                    "proxies were restarted during the soak");
            assertTrue(leaked.isEmpty(), () -> "Netty reported leaked buffers: " + leaked);
            assertTrue(after.moreThreadsThan(before).isEmpty(),
                    () -> "threads left behind: " + after.moreThreadsThan(before) + "; all now " + after.threads);
            assertTrue(after.fds <= before.fds + FD_TOLERANCE,
                    () -> "open file descriptors " + before.fds + " -> " + after.fds);
            assertTrue(after.activeBufferAllocations <= before.activeBufferAllocations,
                    () -> "pooled Netty buffers still allocated: " + before.activeBufferAllocations + " -> "
                            + after.activeBufferAllocations);
            // Pooled memory stays reserved in chunks after release; what the allocator holds may grow by at most
            // one chunk per arena (the arenas' retained chunks), and Netty's own direct counter (when it tracks
            // one) by the same.
            long chunkSlack = (long) PooledByteBufAllocator.DEFAULT.metric().numDirectArenas()
                    * PooledByteBufAllocator.DEFAULT.metric().chunkSize();
            assertTrue(after.pooledDirectBytes <= before.pooledDirectBytes + chunkSlack,
                    () -> "pooled direct memory grew: " + before + " -> " + after);
            assertTrue(after.nettyDirectBytes <= before.nettyDirectBytes + chunkSlack,
                    () -> "Netty direct memory grew: " + before + " -> " + after);
            assertTrue(after.heapUsedAfterGc <= before.heapUsedAfterGc + HEAP_GROWTH_BOUND,
                    () -> "heap after GC grew: " + before + " -> " + after);
            assertTrue(w.maxHeapAfterGc.get() <= before.heapUsedAfterGc + 4 * HEAP_GROWTH_BOUND,
                    () -> "heap after GC during the run reached " + w.maxHeapAfterGc.get() + " bytes");
        }
    }

    /**
     * A snapshot once the closed proxies' threads and descriptors are gone: event loops stop asynchronously
     * (Netty's graceful shutdown), so this polls for up to 20 s until nothing exceeds {@code base}.
     */
    private static ResourceSnapshot settle(ResourceSnapshot base) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            ResourceSnapshot s = ResourceSnapshot.take();
            boolean settled = base == null ? s.moreThreadsThan(ResourceSnapshot.take()).isEmpty()
                    : s.moreThreadsThan(base).isEmpty() && s.fds <= base.fds + FD_TOLERANCE
                    && s.activeBufferAllocations <= base.activeBufferAllocations;
            if (settled || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(200); // threads ending on their own schedule: nothing to wait on
        }
    }

    private static void writeReport(String summary) {
        String out = System.getProperty("courier.soak.report");
        if (out == null) {
            return;
        }
        try {
            java.nio.file.Files.write(new File(out).toPath(), (summary + System.lineSeparator())
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot write the soak report to " + out, e);
        }
    }
}
