package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.Eventually;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.Fetcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole consumer without YARN: real Hadoop ShuffleSchedulerImpl and MergeManagerImpl, map outputs written
 * as map tasks write them, served by in-process Courier proxies; map-completion events through a stub umbilical.
 */
@Timeout(120)
class CourierShuffleConsumerTest {
    @TempDir
    File dir;


    /** One map on each of two nodes, one host fetched at a time, two local-proxy retries 10 ms apart. */
    private static void twoMapsAndTwoQuickLocalRetries(ReduceHarness h) throws IOException {
        h.writeMap(0, 0, 0, 10, 100);
        h.writeMap(1, 1, 0, 10, 100);
        h.succeeded(0, 0, 0);
        h.succeeded(1, 1, 0);
        h.conf.setInt(ReduceConfig.HOSTS_PARALLEL, 1);
        h.conf.setInt(ReduceConfig.LOCAL_PROXY_RETRIES, 2);
        h.conf.setLong(ReduceConfig.LOCAL_PROXY_RETRY_INTERVAL, 10);
    }

    @Test
    void everyMapArrivesThroughTheProxyIntoMemoryAndOntoDiskAndMergesToTheMapsRecords() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 3, 6)) {
            for (int m = 0; m < 6; m++) {
                int node = m % 3;
                boolean big = m % 2 == 0;
                h.writeMap(node, m, 0, big ? 1000 : 20, big ? 1000 : 200);
                h.succeeded(node, m, 0);
            }
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            long[] got = ReduceHarness.digest(c.runAndClose());

            assertArrayEquals(h.expectedDigest(), got, "records merged = records the maps wrote for partition 0");
            assertTrue(c.gate.descriptions.contains("MEMORY"), "small segments are shuffled into memory");
            assertTrue(c.gate.descriptions.contains("DISK"), "segments over the single-shuffle limit go to disk");
            assertEquals(6, h.counter(CourierCounter.PROXY_SEGMENTS));
            assertEquals(h.expectedBytes(), h.counter(CourierCounter.PROXY_BYTES));
            assertEquals(0, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS));
            assertEquals(3, h.counter(CourierCounter.PROXY_CONNECTIONS), "distinct source proxies");
            assertEquals(6, h.counter(TaskCounter.SHUFFLED_MAPS));
            assertEquals(h.expectedBytes(), h.counter(TaskCounter.REDUCE_SHUFFLE_BYTES));
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE));
            assertTrue(h.status.fetchFailed.isEmpty());
            assertTrue(c.fetcher.closed, "run() closes the client");
            assertEquals("Courier", h.counters.getGroup(CourierCounter.class.getName()).getDisplayName());
            assertEquals("Segments through Courier proxy",
                    h.counters.findCounter(CourierCounter.PROXY_SEGMENTS).getDisplayName());
        }
    }

    @Test
    void fetchWorkersStartOnePerHostWithMapOutputsUpToTheBound() throws Exception {
        // Three nodes with two maps each: three workers, though the bound allows sixteen.
        assertEquals(3, workersStartedFor(3, 16));
        // Three nodes, a bound of two: the bound wins.
        assertEquals(2, workersStartedFor(3, 2));
    }

    private int workersStartedFor(int nodes, int bound) throws Exception {
        File sub = new File(dir, "n" + nodes + "-b" + bound);
        try (ReduceHarness h = new ReduceHarness(sub, nodes, 2 * nodes)) {
            for (int m = 0; m < 2 * nodes; m++) {
                h.writeMap(m % nodes, m, 0, 20, 200);
                h.succeeded(m % nodes, m, 0);
            }
            h.conf.setInt(ReduceConfig.HOSTS_PARALLEL, bound);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            return c.fetchWorkersStarted();
        }
    }

    @Test
    void aWaitFromReserveHoldsOnlyThatSegmentWhileTheOthersArrive() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 3, 6)) {
            for (int m = 0; m < 6; m++) {
                h.writeMap(m % 3, m, 0, 200, 500);
                h.succeeded(m % 3, m, 0);
            }
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            c.gate.held = org.apache.hadoop.mapreduce.TaskAttemptID.forName(ReduceHarness.mapAttempt(0, 0));
            try (BackgroundShuffle bg = new BackgroundShuffle(c::runAndClose)) {
                Future<RawKeyValueIterator> run = bg.result;
                // Maps on the other nodes arrive while map 0's segment waits for memory.
                Eventually.waitUntil("maps of nodes 1 and 2", () -> h.counter(TaskCounter.SHUFFLED_MAPS) >= 4);
                Eventually.waitUntil("several WAITs for map 0", () -> c.gate.waitsAnswered.get() >= 3);
                assertFalse(run.isDone());
                assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "a WAIT is not a failure");
                c.gate.release.countDown();
                long[] got = ReduceHarness.digest(run.get(60, TimeUnit.SECONDS));
                assertArrayEquals(h.expectedDigest(), got);
                assertEquals(6, h.counter(CourierCounter.PROXY_SEGMENTS));
                assertEquals(2, c.fetcher.fetchesFrom(h.cluster.id(0)),
                        "maps 0 and 3 were requested once each: map 0's stream stayed open through the WAITs");
                assertTrue(h.counter(CourierCounter.WAIT_MILLIS) > 0);
            }
        }
    }

    @Test
    void aCorruptSegmentIsAReadErrorReportedToTheAmAndNeverMerged() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 4)) {
            MapOutputFiles corrupt = null;
            for (int m = 0; m < 4; m++) {
                MapOutputFiles f = h.writeMap(m % 2, m, 0, 100, 300);
                if (m == 1) {
                    corrupt = f;
                }
                h.succeeded(m % 2, m, 0);
            }
            // Flip a byte inside map 1's partition-0 records (the index still points at the right range).
            long at = 100;
            byte original = ReduceHarness.corrupt(corrupt.data(), at);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::runAndClose)) {
                Future<RawKeyValueIterator> run = bg.result;
                TaskAttemptID bad = TaskAttemptID.forName(ReduceHarness.mapAttempt(1, 0));
                Eventually.waitUntil("a fetch-failure report for map 1", () -> h.status.fetchFailed.contains(bad));
                // Hadoop's copyFailed reports to the AM first and counts FAILED_SHUFFLE last, in the same call.
                Eventually.waitUntil("the failed shuffle counted", () -> h.counter(TaskCounter.FAILED_SHUFFLE) >= 1);
                assertTrue(h.counters.findCounter(Fetcher.SHUFFLE_ERR_GRP_NAME, "IO_ERROR").getValue() >= 1);
                assertFalse(run.isDone(), "the shuffle waits for a good copy of map 1");
                // The map output is repaired (as a re-run would produce it); the penalized map is retried.
                ReduceHarness.restore(corrupt.data(), at, original);
                long[] got = ReduceHarness.digest(run.get(60, TimeUnit.SECONDS));
                assertArrayEquals(h.expectedDigest(), got, "only verified bytes were merged");
                assertEquals(4, h.counter(TaskCounter.SHUFFLED_MAPS));
            }
        }
    }

    @Test
    void anUnreachableSourceIsFetchedOverHttpAndStaysHttpOnly() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 3, 6)) {
            for (int m = 0; m < 4; m++) {
                h.writeMap(m % 3, m, 0, 50, 300);
                h.succeeded(m % 3, m, 0);
            }
            h.writeMap(2, 4, 0, 50, 300);
            h.writeMap(2, 5, 0, 50, 300);
            String deadProxy = h.cluster.id(2);
            h.cluster.proxy(2).close(); // node 2 keeps its files but has no proxy
            TestConsumer c = new TestConsumer(h);
            c.filesAsHttp = true;
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::runAndClose)) {
                Future<RawKeyValueIterator> run = bg.result;
                Eventually.waitUntil("node 2 fetched over HTTP", () -> c.httpHosts.contains(h.mapHost(2)));
                Eventually.waitUntil("maps 0..3", () -> h.counter(TaskCounter.SHUFFLED_MAPS) >= 4);
                int proxyAttempts = c.fetcher.fetchesFrom(deadProxy);
                h.succeeded(2, 4, 0);
                h.succeeded(2, 5, 0);
                long[] got = ReduceHarness.digest(run.get(60, TimeUnit.SECONDS));
                assertArrayEquals(h.expectedDigest(), got);
                assertEquals(proxyAttempts, c.fetcher.fetchesFrom(deadProxy),
                        "later maps of an HTTP-only host do not try its proxy again");
                assertEquals(3, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS), "maps 2, 4, 5");
                assertEquals(3, h.counter(CourierCounter.PROXY_SEGMENTS), "maps 0, 1, 3");
                assertEquals(6, h.counter(TaskCounter.SHUFFLED_MAPS));
                assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "the switch to HTTP blames no one");
            }
        }
    }

    @Test
    void aDeadNodeIsReportedThroughHadoopsHttpFetcherAndARerunMapCompletesTheShuffle() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 3, 3)) {
            for (int m = 0; m < 3; m++) {
                h.writeMap(m, m, 0, 50, 300);
                h.succeeded(m, m, 0);
            }
            h.cluster.proxy(2).close(); // node 2 is down: no proxy, no HTTP shuffle server
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::runAndClose)) {
                Future<RawKeyValueIterator> run = bg.result;
                TaskAttemptID lost = TaskAttemptID.forName(ReduceHarness.mapAttempt(2, 0));
                Eventually.waitUntil("a fetch-failure report for map 2", () -> h.status.fetchFailed.contains(lost));
                assertTrue(c.httpHosts.contains(h.mapHost(2)), "Hadoop's HTTP fetcher tried the node");
                assertTrue(h.counters.findCounter(Fetcher.SHUFFLE_ERR_GRP_NAME, "IO_ERROR").getValue() >= 1,
                        "counted by Hadoop's fetcher in Shuffle Errors");
                // What the AM does after the reports: the map runs again on node 1.
                h.writeMap(1, 2, 1, 50, 300);
                h.event(2, 2, 0, TaskCompletionEvent.Status.OBSOLETE);
                h.succeeded(1, 2, 1);
                long[] got = ReduceHarness.digest(run.get(60, TimeUnit.SECONDS));
                assertArrayEquals(h.expectedDigest(), got);
                assertEquals(3, h.counter(TaskCounter.SHUFFLED_MAPS));
            }
        }
    }

    @Test
    void anUnusableLocalProxyFailsTheTaskAfterTheConfiguredRetries() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 1, 1)) {
            h.writeMap(0, 0, 0, 10, 100);
            h.succeeded(0, 0, 0);
            h.conf.setInt(ReduceConfig.LOCAL_PROXY_RETRIES, 2);
            h.conf.setLong(ReduceConfig.LOCAL_PROXY_RETRY_INTERVAL, 10);
            TestConsumer c = new TestConsumer(h);
            c.refuseConnects = Integer.MAX_VALUE;
            c.init(h.context());
            IOException e = assertThrows(IOException.class, () -> c.runAndClose());
            assertEquals(3, c.connectAttempts.get());
            assertTrue(e.getMessage().contains("127.0.0.1:" + (h.shufflePort(0) + ReduceHarness.OFFSET)), e.getMessage());
            assertTrue(e.getMessage().contains(ReduceConfig.LOCAL_PROXY_RETRIES), e.getMessage());
        }
    }

    @Test
    void withFetchRetryALocalProxyAwayLongerThanTheRetriesIsWaitedForWithinTheRetryTimeout() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            twoMapsAndTwoQuickLocalRetries(h);
            h.conf.setBoolean(ReduceConfig.FETCH_RETRY_ENABLED, true);
            h.conf.setLong(ReduceConfig.FETCH_RETRY_TIMEOUT, 60_000);
            TestConsumer c = new TestConsumer(h);
            c.refuseConnects = 8; // a NodeManager restart: the proxy is away at start ...
            c.localLosses = 8; // ... and again mid-shuffle, each time longer than 2 retries
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertTrue(c.connectAttempts.get() >= 9, "waited for the proxy: " + c.connectAttempts.get());
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "no source was blamed");
        }
    }

    @Test
    void withFetchRetryALocalProxyAwayBeyondTheRetryTimeoutFailsTheTaskNamingIt() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 1, 1)) {
            h.writeMap(0, 0, 0, 10, 100);
            h.succeeded(0, 0, 0);
            h.conf.setInt(ReduceConfig.LOCAL_PROXY_RETRIES, 2);
            h.conf.setLong(ReduceConfig.LOCAL_PROXY_RETRY_INTERVAL, 10);
            h.conf.setBoolean(ReduceConfig.FETCH_RETRY_ENABLED, true);
            h.conf.setLong(ReduceConfig.FETCH_RETRY_TIMEOUT, 300);
            TestConsumer c = new TestConsumer(h);
            c.refuseConnects = Integer.MAX_VALUE;
            c.init(h.context());
            IOException e = assertThrows(IOException.class, () -> c.runAndClose());
            assertTrue(c.connectAttempts.get() > 3, "retried beyond the local retries: " + c.connectAttempts.get());
            assertTrue(e.getMessage().contains(ReduceConfig.FETCH_RETRY_TIMEOUT), e.getMessage());
        }
    }

    @Test
    void aLocalProxyThatAnswersOnASecondAttemptIsUsed() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            h.writeMap(0, 0, 0, 10, 100);
            h.writeMap(1, 1, 0, 10, 100);
            h.succeeded(0, 0, 0);
            h.succeeded(1, 1, 0);
            h.conf.setLong(ReduceConfig.LOCAL_PROXY_RETRY_INTERVAL, 10);
            TestConsumer c = new TestConsumer(h);
            c.refuseConnects = 1;
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(2, c.connectAttempts.get());
        }
    }

    @Test
    void withoutCourierOnTheLocalNodeEveryHostIsFetchedOverHttp() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            h.writeMap(0, 0, 0, 10, 100);
            h.writeMap(1, 1, 0, 10, 100);
            h.succeeded(0, 0, 0);
            h.succeeded(1, 1, 0);
            TestConsumer c = new TestConsumer(h) {
                @Override
                protected java.util.Map<String, String> environment() {
                    java.util.Map<String, String> env = new java.util.HashMap<>();
                    org.apache.hadoop.yarn.util.AuxiliaryServiceHelper.setServiceDataIntoEnv(
                            LocalProxyEndpoint.SHUFFLE_SERVICE, java.nio.ByteBuffer.allocate(4).putInt(0, 13562), env);
                    return env;
                }
            };
            c.filesAsHttp = true;
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(0, c.connectAttempts.get());
            assertEquals(2, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS));
            assertEquals(0, h.counter(CourierCounter.PROXY_SEGMENTS));
        }
    }

    @Test
    void aJobThatAsksForAnEncryptedShuffleIsNeverFetchedThroughTheUnencryptedProxy() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            h.writeMap(0, 0, 0, 10, 100);
            h.writeMap(1, 1, 0, 10, 100);
            h.succeeded(0, 0, 0);
            h.succeeded(1, 1, 0);
            h.conf.setBoolean(org.apache.hadoop.mapreduce.MRConfig.SHUFFLE_SSL_ENABLED_KEY, true);
            TestConsumer c = new TestConsumer(h);
            c.filesAsHttp = true; // stands in for Hadoop's HTTPS fetcher
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(0, c.connectAttempts.get(), "the local proxy is not even contacted");
            assertEquals(2, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS));
            assertEquals(0, h.counter(CourierCounter.PROXY_SEGMENTS));
        }
    }

    @Test
    void aShuffleThatHadoopGivesUpOnFailsTheTaskNamingJobMapAndNode() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 1)) {
            MapOutputFiles f = h.writeMap(1, 0, 0, 100, 300);
            h.succeeded(1, 0, 0);
            try (RandomAccessFile raf = new RandomAccessFile(f.data(), "rw")) {
                raf.seek(100);
                byte b = raf.readByte();
                raf.seek(100);
                raf.writeByte(b ^ 0x5a);
            }
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            // One map, every copy corrupt: Hadoop's scheduler declares the reducer unhealthy.
            IOException e = assertThrows(IOException.class, () -> c.runAndClose());
            String m = e.getMessage();
            assertTrue(m.contains(ReduceHarness.JOB), m);
            assertTrue(m.contains(ReduceHarness.mapAttempt(0, 0)), m);
            assertTrue(m.contains(h.mapHost(1)), m);
            assertTrue(h.status.fetchFailed.contains(TaskAttemptID.forName(ReduceHarness.mapAttempt(0, 0))));
        }
    }

    @Test
    void aLostLocalProxyBlamesNoSourceAndIsRetried() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            h.writeMap(0, 0, 0, 10, 100);
            h.writeMap(1, 1, 0, 10, 100);
            h.succeeded(0, 0, 0);
            h.succeeded(1, 1, 0);
            h.conf.setInt(ReduceConfig.HOSTS_PARALLEL, 1);
            h.conf.setLong(ReduceConfig.LOCAL_PROXY_RETRY_INTERVAL, 10);
            TestConsumer c = new TestConsumer(h);
            c.localLosses = 3; // = courier.reduce.local-proxy.retries
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE));
            assertTrue(h.status.fetchFailed.isEmpty());
        }
    }

    @Test
    void aLocalProxyLostTooOftenInARowFailsTheTaskNamingIt() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            twoMapsAndTwoQuickLocalRetries(h);
            TestConsumer c = new TestConsumer(h);
            c.localLosses = Integer.MAX_VALUE;
            c.init(h.context());
            IOException e = assertThrows(IOException.class, () -> c.runAndClose());
            assertTrue(e.getMessage().contains("127.0.0.1:" + (h.shufflePort(0) + ReduceHarness.OFFSET)), e.getMessage());
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "no source was blamed");
        }
    }
}
