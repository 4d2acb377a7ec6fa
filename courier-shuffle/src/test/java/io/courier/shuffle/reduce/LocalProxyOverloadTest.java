package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.relay.LocalProxyClient;
import io.courier.shuffle.proxy.relay.RelayClientConfig;
import io.courier.shuffle.proxy.relay.RelayStats;
import io.courier.shuffle.proxy.testing.Eventually;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.Fetcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hadoop's TestFetcher.testCopyFromHostConnectionRejected against Courier: a reducer whose node's proxy is at its
 * cap of task connections ({@code courier.proxy.relay.max-connections}, by default Hadoop's
 * {@code mapreduce.shuffle.max.connections}) is refused with OVERLOADED and a retry-after, backs off for that
 * long without counting a failure against anyone, and finishes once a slot frees up. Real relay, real proxies,
 * Hadoop's scheduler and merge manager.
 */
@Timeout(120)
class LocalProxyOverloadTest {
    private static final int RETRY_AFTER_MILLIS = 200;

    @TempDir
    File dir;

    @Test
    void aReducerRefusedByItsOverloadedProxyBacksOffAndFinishesWithNothingCountedAsFailed() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 3, ReduceHarness.proxyConfig().withRelayMaxConnections(1)
                .withRelayRetryAfterMillis(RETRY_AFTER_MILLIS))) {
            for (int map = 0; map < 3; map++) {
                h.writeMap(1, map, 0, 50, 300);
                h.succeeded(1, map, 0);
            }
            RelayStats relay = h.cluster.proxy(0).relayStats();
            NodeAddress local = NodeAddress.parse(h.cluster.id(0));
            LocalProxyClient squatter = LocalProxyClient.connect(local.host(), local.port(), RelayClientConfig.defaults(),
                    "another-task");
            long heldMillis;
            RawKeyValueIterator kv;
            TestConsumer c = new TestConsumer(h);
            c.viaRelay = true;
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::run)) {
                Eventually.waitUntil("another task holds the proxy's only slot",
                        () -> relay.openTaskConnections() == 1 && relay.taskConnections() >= 1);
                long t0 = System.nanoTime();
                Eventually.waitUntil("the reducer refused and back again", () -> relay.overloadedConnections() >= 3);
                squatter.close();
                heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                kv = bg.result.get(60, TimeUnit.SECONDS);
                assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(kv), "every map merged, correctly");
            } finally {
                c.close();
            }

            long refusals = relay.overloadedConnections();
            assertTrue(h.counter(CourierCounter.OVERLOAD_BACKOFFS) >= 1, "the reducer backed off");
            // Back-off, not a storm: one reconnect per retry-after for the whole task, whatever its fetch workers do
            // (they are 4 here). The refusals before t0 are at most one.
            assertTrue(refusals <= heldMillis / RETRY_AFTER_MILLIS + 3, refusals + " refusals while the slot was held"
                    + " for " + heldMillis + " ms with a retry-after of " + RETRY_AFTER_MILLIS + " ms");
            assertEquals(3, h.counter(TaskCounter.SHUFFLED_MAPS));
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE), "an overload is nobody's failure");
            assertEquals(0, h.counters.findCounter(Fetcher.SHUFFLE_ERR_GRP_NAME, "IO_ERROR").getValue());
            assertTrue(h.status.fetchFailed.isEmpty(), "nothing reported to the ApplicationMaster");
            assertEquals(0, h.counter(CourierCounter.SOURCE_RETRIES), "the source was never in question");
            assertEquals(0, h.counter(CourierCounter.HTTP_FALLBACK_SEGMENTS), "no host was given up on");
            assertEquals(3, h.counter(CourierCounter.PROXY_SEGMENTS));
            assertEquals(java.util.Collections.<String>emptyList(), c.gate.unreleased());
        }
    }
}
