package io.courier.shuffle.reduce;

/** What a failed segment fetch says about where the fault is, which decides how the consumer reacts. */
public enum FailureKind {
    /**
     * The local proxy could not reach the source node's proxy (refused or timed out: no Courier proxy there, or
     * the node is down). The host is fetched with Hadoop's HTTP fetcher from now on, which reports the node's
     * failures to the ApplicationMaster exactly as stock Hadoop does; with Hadoop's fetch retry enabled, only once
     * the host has been retried through Courier for {@code mapreduce.reduce.shuffle.fetch.retry.timeout-ms} (a
     * NodeManager restarting).
     */
    SOURCE_UNREACHABLE,
    /**
     * The source answered, but the segment is wrong or incomplete (checksum, length, lost mid-stream, missing map
     * output, serving-side I/O error): a read error of that map, as Hadoop's Fetcher counts it.
     */
    READ_ERROR,
    /** The connection to this node's own proxy failed: no fault of the source; the map is put back unblamed. */
    LOCAL_PROXY,
    /**
     * This node's proxy refused the reducer's connection at its cap ({@code OVERLOADED}, Hadoop's 429): wait the
     * refusal's retry-after and try again; nothing is counted as a failure.
     */
    OVERLOADED
}
