package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.client.SegmentStream;

/**
 * Settings of a task's {@link LocalProxyClient} (docs/configuration.md, "Relay client"). Immutable; start from
 * {@link #defaults()} and override with the {@code with…} methods, which reject invalid values.
 */
public final class RelayClientConfig {
    /**
     * Largest stream window: the relaying proxy caps a stream's credit at its connection budget
     * ({@code courier.proxy.connection.max-in-flight.bytes}, 64 MiB by default), so keep well below it.
     */
    public static final int MAX_STREAM_WINDOW = 16 << 20;
    private final int streamWindow;
    private final long maxInFlight;
    private final int connectTimeoutMillis;
    private final long headerTimeoutMillis;
    private final long readTimeoutMillis;

    private RelayClientConfig(int streamWindow, long maxInFlight, int connectTimeoutMillis, long headerTimeoutMillis,
            long readTimeoutMillis) {
        check(streamWindow >= 1024 && streamWindow <= MAX_STREAM_WINDOW, "stream window",
                "in [1024, " + MAX_STREAM_WINDOW + "] bytes", streamWindow);
        check(maxInFlight >= streamWindow, "max in-flight bytes", ">= the stream window (" + streamWindow + ")",
                maxInFlight);
        check(connectTimeoutMillis >= 1, "connect timeout", ">= 1 ms", connectTimeoutMillis);
        check(headerTimeoutMillis >= 1, "header timeout", ">= 1 ms", headerTimeoutMillis);
        check(readTimeoutMillis >= 1, "read timeout", ">= 1 ms", readTimeoutMillis);
        this.streamWindow = streamWindow;
        this.maxInFlight = maxInFlight;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.headerTimeoutMillis = headerTimeoutMillis;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    private static void check(boolean ok, String what, String rule, Object value) {
        if (!ok) {
            throw new IllegalArgumentException("relay client " + what + " must be " + rule + ", got " + value);
        }
    }

    /**
     * 256 KiB window, 64 MiB in flight, 10 s connect timeout, 60 s header timeout, 180 s read timeout (Hadoop's
     * default {@code mapreduce.reduce.shuffle.read.timeout}).
     */
    public static RelayClientConfig defaults() {
        return new RelayClientConfig(256 * 1024, 64L << 20, 10_000, 60_000, 180_000);
    }

    public RelayClientConfig withStreamWindow(int bytes) {
        return new RelayClientConfig(bytes, Math.max(maxInFlight, bytes), connectTimeoutMillis, headerTimeoutMillis,
                readTimeoutMillis);
    }

    public RelayClientConfig withMaxInFlight(long bytes) {
        return new RelayClientConfig(streamWindow, bytes, connectTimeoutMillis, headerTimeoutMillis, readTimeoutMillis);
    }

    public RelayClientConfig withConnectTimeoutMillis(int millis) {
        return new RelayClientConfig(streamWindow, maxInFlight, millis, headerTimeoutMillis, readTimeoutMillis);
    }

    public RelayClientConfig withHeaderTimeoutMillis(long millis) {
        return new RelayClientConfig(streamWindow, maxInFlight, connectTimeoutMillis, millis, readTimeoutMillis);
    }

    public RelayClientConfig withReadTimeoutMillis(long millis) {
        return new RelayClientConfig(streamWindow, maxInFlight, connectTimeoutMillis, headerTimeoutMillis, millis);
    }

    /** Credit window of one stream: the most bytes buffered for it in the task (and, end to end, in the relay). */
    public int streamWindow() {
        return streamWindow;
    }

    /** Sum of the windows of the task's open streams; further fetches wait until one ends. */
    public long maxInFlight() {
        return maxInFlight;
    }

    /** Timeout of connecting to the local proxy. */
    public int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    /** How long callers should wait in {@code awaitHeader} by default (the fetch is queued behind others). */
    public long headerTimeoutMillis() {
        return headerTimeoutMillis;
    }

    /**
     * Longest wait of a stream's reader for its next byte once the segment has started: a source that stalls
     * mid-segment fails that stream (retryable) instead of hanging the reducer.
     */
    public long readTimeoutMillis() {
        return readTimeoutMillis;
    }

    @Override
    public String toString() {
        return "RelayClientConfig(window=" + streamWindow + ", maxInFlight=" + maxInFlight + ", connectTimeout="
                + connectTimeoutMillis + " ms, headerTimeout=" + headerTimeoutMillis + " ms, readTimeout=" + readTimeoutMillis
                + " ms)";
    }
}
