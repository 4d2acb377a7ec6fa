package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.IncomingSegment;
import java.io.Closeable;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * The reducer's client to its node's Courier proxy, as the consumer uses it. The production implementation
 * wraps the task-side relay client; tests use an in-process {@code CourierProxy}. Thread-safe: every fetch
 * worker of the consumer calls {@link #fetch} concurrently.
 */
public interface SegmentFetcher extends Closeable {
    /**
     * Starts fetching reduce {@code partition} of {@code mapAttempt}'s output of {@code job} from the node whose
     * proxy is {@code sourceProxy} ({@code host:proxyPort}), authenticated with the job's shuffle secret. Failures
     * of the fetch surface from the returned segment; this throws only when the fetch cannot even be started.
     */
    IncomingSegment fetch(String sourceProxy, String job, String mapAttempt, int partition, byte[] jobSecret)
            throws IOException;

    /** Where the fault behind {@code failure} (thrown by this fetcher or one of its segments) lies. */
    FailureKind classify(IOException failure);

    /**
     * Distinct node-pair connections that served segments to this reducer, when the client counts them; empty
     * when it does not (the consumer then reports the number of distinct source proxies).
     */
    OptionalLong servingConnections();

    /** Closes the connection to the local proxy; open segments fail. Idempotent. */
    @Override
    void close();
}
