package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.IncomingSegment;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * Reads the segments of maps that ran on this reducer's own node from their files ({@link NodeLocalOutputs}) and
 * fetches every other segment, and any local one whose files it does not find, through the node's proxy. A local
 * segment through the proxy would cross two loopback connections and both halves of the proxy to come back from
 * the disk it started on; read directly it costs what Hadoop's {@code LocalFetcher} costs. Failures of local reads
 * are read errors of their map, as for a segment the proxy serves. Thread-safe, as its delegate is.
 */
final class NodeLocalFirstFetcher implements SegmentFetcher {
    private final SegmentFetcher proxy;
    private final String localProxy;
    private final NodeLocalOutputs outputs;

    /** @param localProxy {@code host:port} of this node's proxy: a segment from there is node-local */
    NodeLocalFirstFetcher(SegmentFetcher proxy, String localProxy, NodeLocalOutputs outputs) {
        this.proxy = proxy;
        this.localProxy = localProxy;
        this.outputs = outputs;
    }

    @Override
    public IncomingSegment fetch(String sourceProxy, String job, String mapAttempt, int partition, byte[] jobSecret)
            throws IOException {
        if (localProxy.equals(sourceProxy)) {
            LocalSegment s = outputs.open(mapAttempt, partition);
            if (s != null) {
                return s;
            }
        }
        return proxy.fetch(sourceProxy, job, mapAttempt, partition, jobSecret);
    }

    @Override
    public FailureKind classify(IOException failure) {
        return proxy.classify(failure);
    }

    @Override
    public OptionalLong servingConnections() {
        return proxy.servingConnections();
    }

    @Override
    public void close() {
        proxy.close();
    }
}
