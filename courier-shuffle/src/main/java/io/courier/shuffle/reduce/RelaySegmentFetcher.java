package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.IncomingSegment;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.relay.LocalProxyClient;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * The production {@link SegmentFetcher}: the task-side relay client on the reducer's one loopback connection to
 * its node's proxy. Thread-safe, as {@link LocalProxyClient} is.
 */
final class RelaySegmentFetcher implements SegmentFetcher {
    private final LocalProxyClient client;

    RelaySegmentFetcher(LocalProxyClient client) {
        this.client = client;
    }

    @Override
    public IncomingSegment fetch(String sourceProxy, String job, String mapAttempt, int partition, byte[] jobSecret)
            throws IOException {
        try {
            return client.fetch(sourceProxy, job, mapAttempt, partition, jobSecret);
        } catch (IllegalStateException closed) {
            throw FetchException.ofConnection(ErrorCode.SHUTTING_DOWN, "relay client to " + client.localProxy()
                    + " is closed: " + closed.getMessage());
        }
    }

    @Override
    public FailureKind classify(IOException failure) {
        if (!(failure instanceof FetchException)) {
            return FailureKind.READ_ERROR;
        }
        FetchException f = (FetchException) failure;
        if (f.code() == ErrorCode.OVERLOADED) {
            return FailureKind.OVERLOADED;
        }
        // The reducer's own connection failing means its node's proxy is gone: nobody else's fault. Only after
        // that may PEER_UNREACHABLE be read as "the source has no reachable proxy" (it then came from the relay).
        if (f.isConnectionFailure()) {
            return FailureKind.LOCAL_PROXY;
        }
        if (f.code() == ErrorCode.PEER_UNREACHABLE) {
            return FailureKind.SOURCE_UNREACHABLE;
        }
        if (f.code() == ErrorCode.SHUTTING_DOWN || f.code() == ErrorCode.RELAY_NOT_ALLOWED) {
            return FailureKind.LOCAL_PROXY;
        }
        return FailureKind.READ_ERROR;
    }

    @Override
    public OptionalLong servingConnections() {
        return OptionalLong.of(client.counters().peerConnections());
    }

    @Override
    public void close() {
        client.close();
    }
}
