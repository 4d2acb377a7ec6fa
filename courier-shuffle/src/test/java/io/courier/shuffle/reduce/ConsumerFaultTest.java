package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.source.SpillIndex;
import io.courier.shuffle.proxy.testing.Eventually;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.Fetcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hadoop's TestFetcher fault cases against Courier's consumer (docs/security.md, "Fault cases"): a source that
 * hangs before its header, stalls mid-segment, sends too few or too many bytes, answers with a bogus header or
 * an incompatible protocol version; the merge manager out of disk; the task closed while a read is stuck. Real
 * Hadoop scheduler and merge manager; the misbehaving source is a {@link FaultySource} on loopback.
 */
@Timeout(120)
class ConsumerFaultTest {
    @TempDir
    File dir;

    /** The map hosted on the faulty source; map 0 is served by a real proxy on node 1. */
    private static final int FAULTY_MAP = 1;


    /** Writes map {@code map} on node 1 and serves it from {@code source} instead; announces it as done there. */
    private static void onFaultySource(ReduceHarness h, FaultySource source, int map, int records, int valueBytes)
            throws IOException {
        MapOutputFiles f = h.writeMap(1, map, 0, records, valueBytes);
        long raw = SpillIndex.read(f.index(), f.data().length()).record(0).rawLength();
        source.serve(ReduceHarness.mapAttempt(map, 0), h.expectedSegment(map), raw);
        // The scheduler's host is host:shufflePort; the consumer finds the proxy at shufflePort + OFFSET.
        h.events.add(new TaskCompletionEvent(h.events.size(), TaskAttemptID.forName(ReduceHarness.mapAttempt(map, 0)),
                map, true, TaskCompletionEvent.Status.SUCCEEDED,
                "http://127.0.0.1:" + (source.port() - ReduceHarness.OFFSET)));
    }

    @ParameterizedTest
    @EnumSource(value = FaultySource.Fault.class, names = {"NO_HEADER", "STALL", "MISSING_BYTES", "EXTRA_BYTES",
        "BOGUS_HEADER", "WRONG_VERSION"})
    void aFaultyAnswerIsAReadErrorOfThatMapWhichIsFetchedAgainAndNeverMergedWrong(FaultySource.Fault fault)
            throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2);
                FaultySource source = new FaultySource(fault, ReduceHarness.SECRET)) {
            h.writeMap(1, 0, 0, 50, 300);
            h.succeeded(1, 0, 0);
            onFaultySource(h, source, FAULTY_MAP, 50, 300);
            // Short enough to keep the test quick, long enough for the real proxy on a loaded machine.
            h.conf.setLong(ReduceConfig.HEADER_TIMEOUT, 3000);
            h.conf.setLong(ReduceConfig.READ_TIMEOUT, 2000);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            long[] got = ReduceHarness.digest(c.runAndClose());

            assertArrayEquals(h.expectedDigest(), got, fault + ": only the verified copy was merged");
            assertEquals(2, h.counter(TaskCounter.SHUFFLED_MAPS));
            String map = ReduceHarness.mapAttempt(FAULTY_MAP, 0);
            assertTrue(source.fetchesOf(map) >= 2, fault + ": the map was fetched again");
            assertTrue(h.counter(TaskCounter.FAILED_SHUFFLE) >= 1, fault + ": counted as a failed shuffle");
            assertTrue(h.counters.findCounter(Fetcher.SHUFFLE_ERR_GRP_NAME, "IO_ERROR").getValue() >= 1,
                    fault + ": a read error in Hadoop's Shuffle Errors group");
            assertEquals(0, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS), fault + ": the source was reachable");
            if (fault == FaultySource.Fault.STALL || fault == FaultySource.Fault.NO_HEADER) {
                Eventually.waitUntil("the stalled stream cancelled at its source", () -> source.cancels.get() >= 1);
            }
            // Hadoop's testCopyFromHostWithRetryUnreserve: a copy that fails after its reserve gives the
            // reservation back (abort), and every reservation ends exactly once.
            assertEquals(java.util.Collections.<String>emptyList(), c.gate.unreleased(), fault + ": reservations");
            // Only STALL fails for certain after the reserve (its header arrives long before the read times out);
            // a short or long segment may be refused before its header is taken, i.e. before any reserve.
            if (fault == FaultySource.Fault.STALL) {
                assertTrue(c.gate.aborted() >= 1, "STALL: the stalled copy's reservation was aborted");
            }
        }
    }

    @Test
    void aReserveThatFailsForLackOfDiskFailsTheTaskWithoutBlamingTheSource() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 1)) {
            h.writeMap(1, 0, 0, 20, 100);
            h.succeeded(1, 0, 0);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            c.gate.diskFull = true;
            IOException e = assertThrows(IOException.class, () -> c.runAndClose());
            assertTrue(String.valueOf(e.getMessage()).contains("local") || causeChainMentions(e, "no space"),
                    e.toString());
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "the source is not blamed");
            assertTrue(h.status.fetchFailed.isEmpty(), "nothing reported to the ApplicationMaster");
        }
    }

    @Test
    void closingTheTaskWhileAReadIsStuckStopsTheWorkerAndDeletesTheTemporaryOutput() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 1);
                FaultySource source = new FaultySource(FaultySource.Fault.STALL_FOREVER, ReduceHarness.SECRET)) {
            // About 1 MB: above the single-shuffle memory limit, so it is shuffled to a temporary file on disk.
            onFaultySource(h, source, 0, 1000, 1000);
            h.conf.setLong(ReduceConfig.READ_TIMEOUT, 600_000);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::run)) {
                Future<RawKeyValueIterator> run = bg.result;
                Eventually.waitUntil("the segment reserved on disk", () -> c.gate.descriptions.contains("DISK"));
                Eventually.waitUntil("the temporary output file", () -> !mapOutputFiles(h).isEmpty());
                assertFalse(run.isDone(), "the read is stuck");
                long t = System.nanoTime();
                c.close();
                Exception failed = assertThrows(Exception.class, () -> run.get(30, TimeUnit.SECONDS));
                assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t) < 30, "run() ended after close()");
                assertTrue(String.valueOf(failed.getCause()).contains("closed"), String.valueOf(failed));
                assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "a read stopped by close() blames no source");
                assertTrue(h.status.fetchFailed.isEmpty(), "nothing reported to the ApplicationMaster");
                assertEquals(java.util.Collections.<String>emptyList(), mapOutputFiles(h), "the temporary map output was deleted");
                assertEquals(java.util.Collections.<String>emptyList(), c.gate.unreleased(),
                        "the stuck copy's reservation was given back");
                assertEquals(1, c.gate.aborted());
                Eventually.waitUntil("the stuck stream cancelled at its source", () -> source.cancels.get() >= 1);
            }
        }
    }

    private static boolean causeChainMentions(Throwable t, String text) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (String.valueOf(c.getMessage()).contains(text)) {
                return true;
            }
        }
        return false;
    }

    /** Files of shuffled map outputs under the reducer's local dirs (what OnDiskMapOutput writes). */
    private static List<String> mapOutputFiles(ReduceHarness h) {
        Path local = new File(h.dir, "local").toPath();
        if (!Files.exists(local)) {
            return java.util.Collections.<String>emptyList();
        }
        try (Stream<Path> s = Files.walk(local)) {
            return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(n -> n.contains("map_")).collect(Collectors.toList());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
