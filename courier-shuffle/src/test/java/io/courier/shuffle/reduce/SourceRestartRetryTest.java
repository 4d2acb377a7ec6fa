package io.courier.shuffle.reduce;

import io.courier.shuffle.nm.PortPairPicker;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.source.SpillIndex;
import io.courier.shuffle.proxy.testing.Eventually;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source node restarting while a reducer fetches from it (issue 9: "retry across a NodeManager restart within
 * fetch.retry.timeout-ms"): with Hadoop's {@code mapreduce.reduce.shuffle.fetch.retry.enabled}, a source proxy that
 * refuses connections, or drops one mid-segment, is retried through Courier with its maps unblamed, as Hadoop's
 * Fetcher retries a restarting ShuffleHandler; without it, a dropped segment is a read error as before.
 */
@Timeout(120)
class SourceRestartRetryTest {
    @TempDir
    File dir;

    private static final int RESTARTING_MAP = 1;

    /** Map 0 on the real proxy of node 1; map 1 written on node 1 but announced on {@code proxyPort}. */
    private static long twoMaps(ReduceHarness h, int proxyPort) throws IOException {
        h.writeMap(1, 0, 0, 50, 300);
        h.succeeded(1, 0, 0);
        MapOutputFiles f = h.writeMap(1, RESTARTING_MAP, 0, 50, 300);
        h.events.add(new TaskCompletionEvent(h.events.size(),
                TaskAttemptID.forName(ReduceHarness.mapAttempt(RESTARTING_MAP, 0)), RESTARTING_MAP, true,
                TaskCompletionEvent.Status.SUCCEEDED, "http://127.0.0.1:" + (proxyPort - ReduceHarness.OFFSET)));
        return SpillIndex.read(f.index(), f.data().length()).record(0).rawLength();
    }

    private static void fetchRetry(ReduceHarness h, boolean enabled) {
        h.conf.setBoolean(ReduceConfig.FETCH_RETRY_ENABLED, enabled);
        h.conf.setLong(ReduceConfig.FETCH_RETRY_TIMEOUT, 60_000);
        h.conf.setLong(ReduceConfig.FETCH_RETRY_INTERVAL, 100);
        h.conf.setLong(ReduceConfig.HEADER_TIMEOUT, 10_000);
        h.conf.setLong(ReduceConfig.READ_TIMEOUT, 10_000);
    }

    @Test
    void aSourceProxyDownThenBackWithinTheRetryWindowIsRetriedWithoutBlame() throws Exception {
        int port = PortPairPicker.pick(0);
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            long raw = twoMaps(h, port);
            fetchRetry(h, true);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::run)) {
                Eventually.waitUntil("the consumer retrying the source that is down",
                        () -> h.counter(CourierCounter.SOURCE_RETRIES) >= 2);
                assertFalse(bg.result.isDone(), "the shuffle waits for the source to come back");
                try (FaultySource source = new FaultySource(FaultySource.Fault.NONE, ReduceHarness.SECRET, port)) {
                    source.serve(ReduceHarness.mapAttempt(RESTARTING_MAP, 0), h.expectedSegment(RESTARTING_MAP), raw);
                    RawKeyValueIterator kv = bg.result.get(60, TimeUnit.SECONDS);
                    assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(kv), "merged what the sources hold");
                    assertEquals(1, source.fetchesOf(ReduceHarness.mapAttempt(RESTARTING_MAP, 0)));
                }
            } finally {
                c.close();
            }
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "a restarting source is not blamed");
            assertTrue(h.status.fetchFailed.isEmpty(), "nothing reported to the ApplicationMaster");
            assertEquals(0, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS), "the source stayed on Courier");
            assertEquals(2, h.counter(CourierCounter.PROXY_SEGMENTS));
        }
    }

    @Test
    void aConnectionDroppedMidSegmentIsRetriedWithoutBlameWhenFetchRetryIsOn() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2);
                FaultySource source = new FaultySource(FaultySource.Fault.DROP, ReduceHarness.SECRET)) {
            long raw = twoMaps(h, source.port());
            source.serve(ReduceHarness.mapAttempt(RESTARTING_MAP, 0), h.expectedSegment(RESTARTING_MAP), raw);
            fetchRetry(h, true);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(2, source.fetchesOf(ReduceHarness.mapAttempt(RESTARTING_MAP, 0)), "fetched again");
            assertTrue(h.counter(CourierCounter.SOURCE_RETRIES) >= 1, "counted as a retry");
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "not as a failed fetch");
            assertTrue(h.status.fetchFailed.isEmpty(), "nothing reported to the ApplicationMaster");
        }
    }

    @Test
    void withoutFetchRetryADroppedConnectionIsAReadErrorOfThatMap() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2);
                FaultySource source = new FaultySource(FaultySource.Fault.DROP, ReduceHarness.SECRET)) {
            long raw = twoMaps(h, source.port());
            source.serve(ReduceHarness.mapAttempt(RESTARTING_MAP, 0), h.expectedSegment(RESTARTING_MAP), raw);
            fetchRetry(h, false);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(0, h.counter(CourierCounter.SOURCE_RETRIES));
            assertTrue(h.counter(TaskCounter.FAILED_SHUFFLE) >= 1, "a read error, as in Hadoop without retry");
        }
    }
}
