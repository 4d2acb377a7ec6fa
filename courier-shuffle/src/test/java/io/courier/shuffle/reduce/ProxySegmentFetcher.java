package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.IncomingSegment;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.IOException;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link SegmentFetcher} over an in-process {@link CourierProxy} standing in for the reducer's local proxy.
 * The in-process client reports a refused connection as PEER_LOST "cannot connect"; that is what the relay's
 * PEER_UNREACHABLE code means, so it is classified as an unreachable source. Counts fetches per source proxy.
 */
final class ProxySegmentFetcher implements SegmentFetcher {
    private final CourierProxy local;
    final Map<String, AtomicInteger> fetchesBySource = new ConcurrentHashMap<>();
    volatile boolean closed;
    /** Fetches that fail as if the connection to the local proxy were lost, before fetches work again. */
    final AtomicInteger localLosses = new AtomicInteger();

    ProxySegmentFetcher(CourierProxy local) {
        this.local = local;
    }

    @Override
    public IncomingSegment fetch(String sourceProxy, String job, String mapAttempt, int partition, byte[] secret)
            throws IOException {
        fetchesBySource.computeIfAbsent(sourceProxy, k -> new AtomicInteger()).incrementAndGet();
        if (localLosses.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new FetchException(ErrorCode.SHUTTING_DOWN, "local proxy lost (test)");
        }
        try {
            return local.fetch(sourceProxy, job, mapAttempt, partition, secret);
        } catch (IllegalStateException e) {
            throw new FetchException(ErrorCode.SHUTTING_DOWN, "local proxy closed: " + e.getMessage());
        }
    }

    int fetchesFrom(String source) {
        AtomicInteger n = fetchesBySource.get(source);
        return n == null ? 0 : n.get();
    }

    @Override
    public FailureKind classify(IOException failure) {
        if (failure instanceof FetchException) {
            FetchException f = (FetchException) failure;
            // In process there is no relay: the proxy's own connection to the source failing to open is the
            // source being unreachable (streams queued on it later fail with the same code).
            if (f.code() == ErrorCode.PEER_UNREACHABLE) {
                return FailureKind.SOURCE_UNREACHABLE;
            }
            if (f.code() == ErrorCode.SHUTTING_DOWN) {
                return FailureKind.LOCAL_PROXY;
            }
        }
        return FailureKind.READ_ERROR;
    }

    @Override
    public OptionalLong servingConnections() {
        return OptionalLong.empty();
    }

    @Override
    public void close() {
        closed = true;
    }
}
