package io.courier.shuffle.reduce;

/**
 * Job counters of the Courier shuffle (group "Courier", display names in {@code CourierCounter.properties}).
 * Hadoop's own shuffle counters (REDUCE_SHUFFLE_BYTES, SHUFFLED_MAPS, FAILED_SHUFFLE, "Shuffle Errors") keep
 * counting every copy, whichever path it took.
 */
public enum CourierCounter {
    /** Segment bytes (IFile bytes with checksum) that arrived through the Courier proxy. */
    PROXY_BYTES,
    /** Map output segments that arrived through the Courier proxy. */
    PROXY_SEGMENTS,
    /**
     * Distinct node-pair connections that served this reducer, as counted by the proxy client; when the client
     * does not count them, the number of distinct source proxies that served at least one segment.
     */
    PROXY_CONNECTIONS,
    /**
     * Segment bytes of maps that ran on the reducer's own node, read from their files without the proxy (as
     * Hadoop's LocalFetcher reads them).
     */
    LOCAL_BYTES,
    /** Map output segments read from node-local files. */
    LOCAL_SEGMENTS,
    /** Segment bytes fetched with Hadoop's HTTP fetcher from nodes without a reachable Courier proxy. */
    HTTP_FALLBACK_BYTES,
    /** Map output segments fetched with Hadoop's HTTP fetcher. */
    HTTP_FALLBACK_SEGMENTS,
    /**
     * Times a map host's proxy refused or dropped the connection and the host was retried within
     * {@code mapreduce.reduce.shuffle.fetch.retry.timeout-ms} (a NodeManager restarting) instead of failing its maps.
     */
    SOURCE_RETRIES,
    /**
     * Times this reducer backed off because its node's proxy refused its connection at
     * {@code courier.proxy.relay.max-connections} (OVERLOADED, Hadoop's 429): no failure is counted for them.
     */
    OVERLOAD_BACKOFFS,
    /** Milliseconds segments waited for merge memory (reserve said WAIT), for their header or for their bytes. */
    WAIT_MILLIS
}
