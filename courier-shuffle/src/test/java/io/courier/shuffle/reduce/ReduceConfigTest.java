package io.courier.shuffle.reduce;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReduceConfigTest {
    @Test
    void defaultsAndOverrides() {
        Configuration conf = new Configuration(false);
        ReduceConfig d = ReduceConfig.from(conf);
        assertEquals(16, d.hostsParallel());
        assertEquals(3, d.localProxyRetries());
        assertEquals(1000, d.localProxyRetryIntervalMillis());
        assertEquals(180_000, d.headerTimeoutMillis());
        assertEquals(180_000, d.readTimeoutMillis());
        assertEquals(256 * 1024, d.streamWindow());
        conf.set(ReduceConfig.STREAM_WINDOW, "32768");
        assertEquals(32_768, ReduceConfig.from(conf).streamWindow());
        conf.set(ReduceConfig.READ_TIMEOUT, "30000");
        assertEquals(30_000, ReduceConfig.from(conf).readTimeoutMillis(), "Hadoop's shuffle read timeout is used");
        conf.set(ReduceConfig.HOSTS_PARALLEL, " 40 ");
        conf.set(ReduceConfig.LOCAL_PROXY_RETRIES, "0");
        assertEquals(40, ReduceConfig.from(conf).hostsParallel());
        assertEquals(0, ReduceConfig.from(conf).localProxyRetries());
    }

    @Test
    void badValuesNameTheKeyAndTheRange() {
        refused(ReduceConfig.HOSTS_PARALLEL, "0", "1..1024");
        refused(ReduceConfig.HOSTS_PARALLEL, "many", "'many'");
        refused(ReduceConfig.HEADER_TIMEOUT, "-5", "");
        refused(ReduceConfig.STREAM_WINDOW, "512", "1024..");
        refused(ReduceConfig.STREAM_WINDOW, "99999999999", "");
        // Beyond the int range: refused, not read as what a cast leaves of it (2^32 + 16 would be 16).
        refused(ReduceConfig.HOSTS_PARALLEL, "4294967312", "");
        refused(ReduceConfig.LOCAL_PROXY_RETRIES, "4294967298", "");
    }

    @Test
    void nodeLocalReadsAreOnUnlessSwitchedOffAndABadValueNamesTheKey() {
        Configuration conf = new Configuration(false);
        assertTrue(ReduceConfig.nodeLocalReads(conf));
        conf.set(ReduceConfig.NODE_LOCAL_READS, " FALSE ");
        assertEquals(false, ReduceConfig.nodeLocalReads(conf));
        conf.set(ReduceConfig.NODE_LOCAL_READS, "maybe");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReduceConfig.nodeLocalReads(conf));
        assertTrue(e.getMessage().contains(ReduceConfig.NODE_LOCAL_READS) && e.getMessage().contains("'maybe'"),
                e.getMessage());
    }

    /** {@code key=value} alone fails {@link ReduceConfig#from} with a message naming the key and {@code also}. */
    private static void refused(String key, String value, String also) {
        Configuration conf = new Configuration(false);
        conf.set(key, value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReduceConfig.from(conf));
        assertTrue(e.getMessage().contains(key) && e.getMessage().contains(also), key + "=" + value + ": "
                + e.getMessage());
    }

    @Test
    void eventBatchesFollowHadoopsFormula() {
        assertEquals(10000, MapCompletionPoller.maxEventsToFetch(1));
        assertEquals(10000, MapCompletionPoller.maxEventsToFetch(300));
        assertEquals(3000, MapCompletionPoller.maxEventsToFetch(1000));
        assertEquals(100, MapCompletionPoller.maxEventsToFetch(100_000));
    }
}
