package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.relay.RelayClientConfig;
import org.apache.hadoop.conf.Configuration;

/**
 * The reduce-side configuration keys of Courier (documented in docs/configuration.md, "Reduce side"), read from
 * the job configuration and validated with errors that name the key. Immutable.
 */
public final class ReduceConfig {
    /** How many source hosts one reducer fetches from at the same time (one worker thread per host). */
    public static final String HOSTS_PARALLEL = "courier.reduce.hosts.parallel";
    /** How many more times the reducer tries to connect to its node's proxy before the task fails. */
    public static final String LOCAL_PROXY_RETRIES = "courier.reduce.local-proxy.retries";
    /** Pause between two attempts to reach the local proxy. */
    public static final String LOCAL_PROXY_RETRY_INTERVAL = "courier.reduce.local-proxy.retry-interval.ms";
    /** How long one segment may wait for its header before it counts as a failed fetch of that map. */
    public static final String HEADER_TIMEOUT = "courier.reduce.header-timeout.ms";
    /**
     * How long a segment's reader waits for its next byte once the segment has started before the map counts as
     * a failed fetch (a source that stalls without closing). Defaults to Hadoop's {@link #HADOOP_READ_TIMEOUT}.
     */
    public static final String READ_TIMEOUT = "courier.reduce.read-timeout.ms";
    /** Hadoop's reduce-side read timeout, the default of {@link #READ_TIMEOUT}. */
    public static final String HADOOP_READ_TIMEOUT = "mapreduce.reduce.shuffle.read.timeout";

    /**
     * Whether segments of maps that ran on the reducer's own node are read from their files (as Hadoop's
     * LocalFetcher does) instead of through the proxy. Default true.
     */
    public static final String NODE_LOCAL_READS = "courier.reduce.node-local.read";

    public static final int DEFAULT_HOSTS_PARALLEL = 16;
    public static final int DEFAULT_LOCAL_PROXY_RETRIES = 3;
    public static final long DEFAULT_LOCAL_PROXY_RETRY_INTERVAL = 1000;
    public static final long DEFAULT_HEADER_TIMEOUT = 180_000;
    /** Hadoop's default of {@link #HADOOP_READ_TIMEOUT}. */
    public static final long DEFAULT_READ_TIMEOUT = 180_000;
    /**
     * Hadoop's switch for retrying a map host that dropped or refused connections (a NodeManager restarting) for
     * up to {@link #FETCH_RETRY_TIMEOUT} before its maps count as failed. Default as in Hadoop's Fetcher:
     * {@code yarn.nodemanager.recovery.enabled}.
     */
    public static final String FETCH_RETRY_ENABLED = "mapreduce.reduce.shuffle.fetch.retry.enabled";
    /**
     * How long a host may keep failing that way before its maps count as failed (Hadoop's key; Hadoop's
     * mapred-default.xml sets 30000, and {@link #DEFAULT_FETCH_RETRY_TIMEOUT} applies only where that file is not
     * loaded, as Hadoop's Fetcher falls back to its 3-minute stall timeout).
     */
    public static final String FETCH_RETRY_TIMEOUT = "mapreduce.reduce.shuffle.fetch.retry.timeout-ms";
    /** Pause between two such retries (Hadoop's key and default). */
    public static final String FETCH_RETRY_INTERVAL = "mapreduce.reduce.shuffle.fetch.retry.interval-ms";
    /** Hadoop's default of {@link #FETCH_RETRY_ENABLED} when it is unset. */
    public static final String NM_RECOVERY_ENABLED = "yarn.nodemanager.recovery.enabled";
    /**
     * Credit window of one segment stream the reducer fetches through its node's proxy. The relaying proxy
     * reserves this much of its node budget per open stream, so together with
     * {@code courier.proxy.node.max-in-flight.bytes} it bounds the bytes in flight toward the node.
     */
    public static final String STREAM_WINDOW = "courier.reduce.stream.window.bytes";
    public static final int DEFAULT_STREAM_WINDOW = RelayClientConfig.defaults().streamWindow();
    public static final long DEFAULT_FETCH_RETRY_TIMEOUT = 180_000;
    public static final long DEFAULT_FETCH_RETRY_INTERVAL = 1000;

    private final int hostsParallel;
    private final int localProxyRetries;
    private final long localProxyRetryIntervalMillis;
    private final long headerTimeoutMillis;
    private final long readTimeoutMillis;
    private final boolean fetchRetryEnabled;
    private final long fetchRetryTimeoutMillis;
    private final long fetchRetryIntervalMillis;
    private final int streamWindow;

    public ReduceConfig(int hostsParallel, int localProxyRetries, long localProxyRetryIntervalMillis,
            long headerTimeoutMillis) {
        this(hostsParallel, localProxyRetries, localProxyRetryIntervalMillis, headerTimeoutMillis,
                DEFAULT_READ_TIMEOUT);
    }

    public ReduceConfig(int hostsParallel, int localProxyRetries, long localProxyRetryIntervalMillis,
            long headerTimeoutMillis, long readTimeoutMillis) {
        this(hostsParallel, localProxyRetries, localProxyRetryIntervalMillis, headerTimeoutMillis, readTimeoutMillis,
                false, DEFAULT_FETCH_RETRY_TIMEOUT, DEFAULT_FETCH_RETRY_INTERVAL, DEFAULT_STREAM_WINDOW);
    }

    private ReduceConfig(int hostsParallel, int localProxyRetries, long localProxyRetryIntervalMillis,
            long headerTimeoutMillis, long readTimeoutMillis, boolean fetchRetryEnabled, long fetchRetryTimeoutMillis,
            long fetchRetryIntervalMillis, int streamWindow) {
        this.streamWindow = check(STREAM_WINDOW, streamWindow, 1024, RelayClientConfig.MAX_STREAM_WINDOW);
        this.fetchRetryEnabled = fetchRetryEnabled;
        this.fetchRetryTimeoutMillis = check(FETCH_RETRY_TIMEOUT, fetchRetryTimeoutMillis, 0, 24L * 3600 * 1000);
        this.fetchRetryIntervalMillis = check(FETCH_RETRY_INTERVAL, fetchRetryIntervalMillis, 0, 600_000);
        this.hostsParallel = check(HOSTS_PARALLEL, hostsParallel, 1, 1024);
        this.localProxyRetries = (int) check(LOCAL_PROXY_RETRIES, localProxyRetries, 0, 100);
        this.localProxyRetryIntervalMillis = check(LOCAL_PROXY_RETRY_INTERVAL, localProxyRetryIntervalMillis, 0,
                600_000);
        this.headerTimeoutMillis = check(HEADER_TIMEOUT, headerTimeoutMillis, 1, 24L * 3600 * 1000);
        this.readTimeoutMillis = check(READ_TIMEOUT, readTimeoutMillis, 1, 24L * 3600 * 1000);
    }

    /** The values in {@code conf}, defaults for absent keys. @throws IllegalArgumentException naming a bad key */
    public static ReduceConfig from(Configuration conf) {
        return new ReduceConfig(intValue(conf, HOSTS_PARALLEL, DEFAULT_HOSTS_PARALLEL),
                intValue(conf, LOCAL_PROXY_RETRIES, DEFAULT_LOCAL_PROXY_RETRIES),
                longValue(conf, LOCAL_PROXY_RETRY_INTERVAL, DEFAULT_LOCAL_PROXY_RETRY_INTERVAL),
                longValue(conf, HEADER_TIMEOUT, DEFAULT_HEADER_TIMEOUT),
                longValue(conf, READ_TIMEOUT, longValue(conf, HADOOP_READ_TIMEOUT, DEFAULT_READ_TIMEOUT)),
                conf.getBoolean(FETCH_RETRY_ENABLED, conf.getBoolean(NM_RECOVERY_ENABLED, false)),
                longValue(conf, FETCH_RETRY_TIMEOUT, DEFAULT_FETCH_RETRY_TIMEOUT),
                longValue(conf, FETCH_RETRY_INTERVAL, DEFAULT_FETCH_RETRY_INTERVAL),
                intValue(conf, STREAM_WINDOW, DEFAULT_STREAM_WINDOW));
    }

    /**
     * {@link #longValue} clamped to the int range, so that the range check refuses a value beyond it instead of
     * seeing what is left of it after a cast (4294967312 would read as 16).
     */
    private static int intValue(Configuration conf, String key, long dflt) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, longValue(conf, key, dflt)));
    }

    /** This configuration with Hadoop's fetch retry settings replaced (see {@link #FETCH_RETRY_ENABLED}). */
    public ReduceConfig withFetchRetry(boolean enabled, long timeoutMillis, long intervalMillis) {
        return new ReduceConfig(hostsParallel, localProxyRetries, localProxyRetryIntervalMillis, headerTimeoutMillis,
                readTimeoutMillis, enabled, timeoutMillis, intervalMillis, streamWindow);
    }

    /** This configuration with another credit window per relayed stream (see {@link #STREAM_WINDOW}). */
    public ReduceConfig withStreamWindow(int bytes) {
        return new ReduceConfig(hostsParallel, localProxyRetries, localProxyRetryIntervalMillis, headerTimeoutMillis,
                readTimeoutMillis, fetchRetryEnabled, fetchRetryTimeoutMillis, fetchRetryIntervalMillis, bytes);
    }

    /** Credit window of one relayed segment stream. */
    public int streamWindow() {
        return streamWindow;
    }

    public static ReduceConfig defaults() {
        return new ReduceConfig(DEFAULT_HOSTS_PARALLEL, DEFAULT_LOCAL_PROXY_RETRIES,
                DEFAULT_LOCAL_PROXY_RETRY_INTERVAL, DEFAULT_HEADER_TIMEOUT, DEFAULT_READ_TIMEOUT);
    }

    public int hostsParallel() {
        return hostsParallel;
    }

    public int localProxyRetries() {
        return localProxyRetries;
    }

    public long localProxyRetryIntervalMillis() {
        return localProxyRetryIntervalMillis;
    }

    public long headerTimeoutMillis() {
        return headerTimeoutMillis;
    }

    /** How long a reader waits for more bytes of a segment before that fetch fails. */
    public long readTimeoutMillis() {
        return readTimeoutMillis;
    }

    /**
     * True when a map host whose proxy refuses connections or drops them mid-segment is retried (maps put back
     * unblamed) for up to {@link #fetchRetryTimeoutMillis()} before its maps count as failed.
     */
    public boolean fetchRetryEnabled() {
        return fetchRetryEnabled;
    }

    public long fetchRetryTimeoutMillis() {
        return fetchRetryTimeoutMillis;
    }

    public long fetchRetryIntervalMillis() {
        return fetchRetryIntervalMillis;
    }

    /** {@link #NODE_LOCAL_READS} in {@code conf}. @throws IllegalArgumentException for a value not true/false */
    public static boolean nodeLocalReads(Configuration conf) {
        String v = conf.getTrimmed(NODE_LOCAL_READS);
        if (v == null || v.isEmpty()) {
            return true;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException(NODE_LOCAL_READS + " must be true or false, got '" + v + "'");
    }

    private static long longValue(Configuration conf, String key, long dflt) {
        String v = conf.getTrimmed(key);
        if (v == null || v.isEmpty()) {
            return dflt;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
        }
    }

    private static int check(String key, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(key + " must be in " + min + ".." + max + ", got " + v);
        }
        return (int) Math.min(v, Integer.MAX_VALUE);
    }

    @Override
    public String toString() {
        return HOSTS_PARALLEL + "=" + hostsParallel + ", " + LOCAL_PROXY_RETRIES + "=" + localProxyRetries + ", "
                + LOCAL_PROXY_RETRY_INTERVAL + "=" + localProxyRetryIntervalMillis + ", " + HEADER_TIMEOUT + "="
                + headerTimeoutMillis + ", " + READ_TIMEOUT + "=" + readTimeoutMillis + ", " + STREAM_WINDOW + "="
                + streamWindow + ", " + FETCH_RETRY_ENABLED + "="
                + fetchRetryEnabled + (fetchRetryEnabled ? ", " + FETCH_RETRY_TIMEOUT + "=" + fetchRetryTimeoutMillis
                + ", " + FETCH_RETRY_INTERVAL + "=" + fetchRetryIntervalMillis : "");
    }
}
