package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sampler on a directory laid out as /proc (pid/task/tid/{comm,schedstat}); samples are taken by the test (the
 * sampler's own period is an hour), so every window is exact.
 */
@Timeout(30)
class ThreadCpuSamplerTest {
    private static final long HOUR_MILLIS = 3_600_000;
    @TempDir
    Path proc;

    /** The window starts at uptime 1000 s, tick 100000; threads the tests start meanwhile start at tick 100050. */
    private static final long BORN_IN_WINDOW = 100_050;

    @org.junit.jupiter.api.BeforeEach
    void uptime() throws IOException {
        Files.writeString(proc.resolve("uptime"), "1000.00 1900.00\n");
    }

    private void thread(long pid, long tid, String comm, long onCpuNanos) throws IOException {
        thread(pid, tid, comm, onCpuNanos, BORN_IN_WINDOW);
    }

    private void thread(long pid, long tid, String comm, long onCpuNanos, long startTicks) throws IOException {
        Path d = proc.resolve(pid + "/task/" + tid);
        Files.createDirectories(d);
        Files.writeString(d.resolve("comm"), comm + "\n");
        Files.writeString(d.resolve("schedstat"), onCpuNanos + " 12345 67\n");
        // A real stat line's shape: pid (comm) state, then fields 4..52; field 22 is the start time.
        StringBuilder stat = new StringBuilder(tid + " (" + comm + ") S");
        for (int field = 4; field <= 52; field++) {
            stat.append(' ').append(field == 22 ? startTicks : 0);
        }
        Files.writeString(d.resolve("stat"), stat + "\n");
    }

    /** As the kernel does for an exited thread, its open schedstat reads nothing more (ESRCH there). */
    private void exit(long pid, long tid) throws IOException {
        Path d = proc.resolve(pid + "/task/" + tid);
        Files.writeString(d.resolve("schedstat"), "");
        for (String f : new String[] {"comm", "schedstat", "stat"}) {
            Files.delete(d.resolve(f));
        }
        Files.delete(d);
    }

    private static final long MS = 1_000_000;

    @Test
    void countsCpuSinceTheFirstSampleAndAllCpuOfThreadsBornInTheWindow() throws Exception {
        thread(100, 100, "java", 5000 * MS);
        thread(100, 101, "courier-proxy-i", 1000 * MS);
        thread(100, 102, "VM Thread", 700 * MS);
        thread(200, 201, "ShuffleHandler ", 300 * MS);
        ThreadCpuSampler s = new ThreadCpuSampler(List.of(100L, 200L), proc, HOUR_MILLIS, null);
        s.start();
        thread(100, 101, "courier-proxy-i", 1500 * MS);   // +500 ms
        thread(100, 103, "fetcher#1", 200 * MS);          // born in the window: all 200 ms count
        thread(200, 201, "ShuffleHandler ", 340 * MS);    // +40 ms
        s.sample();
        thread(100, 103, "fetcher#1", 300 * MS);
        s.sample();
        exit(100, 103);                                   // gone: counts up to its last sample, 300 ms
        // Born with its parent's name, named by its second sample.
        thread(100, 104, "netemu-reducer", 10 * MS);
        s.sample();
        thread(100, 104, "fetcher#2", 100 * MS);
        thread(100, 102, "VM Thread", 720 * MS);          // +20 ms
        RoleCpu cpu = s.stop();
        assertEquals(0.5, cpu.of(ThreadRole.PROXY_IO), 1e-9);
        assertEquals(0.4, cpu.of(ThreadRole.FETCH_WORKERS), 1e-9, "300 ms of fetcher#1 and 100 ms of fetcher#2");
        assertEquals(0.0, cpu.of(ThreadRole.REDUCE_TASK), 1e-9, "the renamed thread is not the reducer");
        assertEquals(0.04, cpu.of(ThreadRole.SHUFFLE_SERVER), 1e-9);
        assertEquals(0.02, cpu.of(ThreadRole.GC), 1e-9);
        assertEquals(0.0, cpu.of(ThreadRole.OTHER), 1e-9, "the main thread did not run");
        assertEquals(0.96, cpu.attributedSec(), 1e-9);
        assertEquals(0.04, cpu.unattributedSec(1.0), 1e-9);
        assertEquals(6, cpu.threads());
        assertEquals(5, cpu.samples(), "start, three samples, stop");
        assertNull(cpu.error());
    }

    @Test
    void aReusedThreadIdIsANewThread() throws Exception {
        thread(100, 101, "fetcher#1", 400 * MS);
        ThreadCpuSampler s = new ThreadCpuSampler(List.of(100L), proc, HOUR_MILLIS, null);
        s.start();
        thread(100, 101, "fetcher#1", 450 * MS);
        s.sample();
        exit(100, 101);
        s.sample();
        thread(100, 101, "InMemoryMerger ", 30 * MS);
        RoleCpu cpu = s.stop();
        assertEquals(0.05, cpu.of(ThreadRole.FETCH_WORKERS), 1e-9);
        assertEquals(0.03, cpu.of(ThreadRole.MERGE), 1e-9);
    }

    @Test
    void samplesOnItsOwnThreadBetweenStartAndStop() throws Exception {
        thread(100, 101, "courier-fetch#0", 0);
        ThreadCpuSampler s = new ThreadCpuSampler(List.of(100L), proc, 5, null);
        s.start();
        Thread.sleep(50);
        thread(100, 102, "courier-relay-r", 70 * MS);
        // 40 periods: the sampler thread, not stop(), must see the short-lived thread before it exits.
        Thread.sleep(200);
        exit(100, 102);
        RoleCpu cpu = s.stop();
        assertEquals(0.07, cpu.of(ThreadRole.RELAY_READER), 1e-9);
    }

    @Test
    void aThreadSkippedByOneListingIsNeitherEndedNorCountedTwice() throws Exception {
        thread(100, 101, "courier-proxy-i", 1000 * MS, 500);
        ThreadCpuSampler s = new ThreadCpuSampler(List.of(100L), proc, HOUR_MILLIS, null);
        s.start();
        // The listing misses 101 while it keeps running (its open schedstat still answers).
        Path listed = proc.resolve("100/task/101");
        Path hidden = proc.resolve("100/hidden-101");
        Files.move(listed, hidden);
        Files.writeString(hidden.resolve("schedstat"), 1200 * MS + " 1 1\n");
        s.sample();
        Files.move(hidden, listed);
        thread(100, 101, "courier-proxy-i", 1500 * MS, 500);
        RoleCpu cpu = s.stop();
        assertEquals(0.5, cpu.of(ThreadRole.PROXY_IO), 1e-9, "1000 ms to 1500 ms, once");
        assertEquals(1, cpu.threads());
    }

    @Test
    void anOldThreadFirstSeenLateCountsFromThenNotFromItsStart() throws Exception {
        thread(100, 100, "java", 0, 500);
        ThreadCpuSampler s = new ThreadCpuSampler(List.of(100L), proc, HOUR_MILLIS, null);
        s.start();
        // Missed by the first listing: started long before the window (tick 500), 9 s of CPU already.
        thread(100, 102, "C2 CompilerThre", 9000 * MS, 500);
        s.sample();
        thread(100, 102, "C2 CompilerThre", 9100 * MS, 500);
        // Started in the window's first tick (up to one tick before the window, whole ticks): counted whole.
        thread(100, 103, "C2 CompilerThre", 40 * MS, 100_000);
        RoleCpu cpu = s.stop();
        assertEquals(0.14, cpu.of(ThreadRole.JIT), 1e-9);
    }

    @Test
    void aMissingProcessIsReported() throws Exception {
        thread(100, 101, "fetcher#1", 0);
        ThreadCpuSampler s = new ThreadCpuSampler(List.of(100L, 999L), proc, HOUR_MILLIS, null);
        s.start();
        RoleCpu cpu = s.stop();
        assertNotNull(cpu.error());
        assertTrue(cpu.error().contains("999"), cpu.error());
    }

    @Test
    void schedstatWithoutANumberIsAnErrorNamingTheFile() {
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> ThreadCpuSampler.parseSchedstat("garbage\n", Path.of("/proc/1/task/1")));
        assertTrue(e.getMessage().contains("/proc/1/task/1/schedstat"), e.getMessage());
    }
}
