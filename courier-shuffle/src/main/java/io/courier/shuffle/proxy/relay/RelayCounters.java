package io.courier.shuffle.proxy.relay;

import java.util.Set;

/** A snapshot of what a {@link LocalProxyClient} fetched since it was connected. Immutable. */
public final class RelayCounters {
    private final long bytes;
    private final long segments;
    private final long streamsFailed;
    private final Set<String> peerConnections;

    RelayCounters(long bytes, long segments, long streamsFailed, Set<String> peerConnections) {
        this.bytes = bytes;
        this.segments = segments;
        this.streamsFailed = streamsFailed;
        this.peerConnections = peerConnections;
    }

    /** Segment bytes received from the local proxy. */
    public long bytes() {
        return bytes;
    }

    /** Segments that ended with exactly the bytes their header announced. */
    public long segments() {
        return segments;
    }

    public long streamsFailed() {
        return streamsFailed;
    }

    /** How many distinct proxy-to-proxy connections served this task's segments. */
    public int peerConnections() {
        return peerConnections.size();
    }

    /** Their identifiers ({@code relayProxy->sourceProxy#n}), sorted. */
    public Set<String> peerConnectionIds() {
        return peerConnections;
    }

    @Override
    public String toString() {
        return "RelayCounters(bytes=" + bytes + ", segments=" + segments + ", failed=" + streamsFailed
                + ", peerConnections=" + peerConnections.size() + ")";
    }
}
