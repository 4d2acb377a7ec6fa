package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.PeerConnectionCounts;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the fetching side of one proxy (thread-safe). */
public final class ClientCounters {
    private final PeerConnectionCounts connectionsByPeer = new PeerConnectionCounts();
    final AtomicLong rejectedFrames = new AtomicLong();
    final AtomicLong bytesReceived = new AtomicLong();
    final AtomicLong streamsFailed = new AtomicLong();
    final AtomicLong segmentsCompleted = new AtomicLong();
    final AtomicLong blocksReceived = new AtomicLong();

    void connectionOpened(String peer) {
        connectionsByPeer.add(peer);
    }

    /** Connections this proxy opened to each peer since start. */
    public Map<String, Long> connectionsByPeer() {
        return connectionsByPeer.snapshot();
    }

    /** Frames dropped because they named no open stream. */
    public long rejectedFrames() {
        return rejectedFrames.get();
    }

    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** DATA frames (blocks of at most 64 KiB) received for open streams. */
    public long blocksReceived() {
        return blocksReceived.get();
    }

    public long streamsFailed() {
        return streamsFailed.get();
    }

    /** Streams that ended with exactly the bytes their header announced. */
    public long segmentsCompleted() {
        return segmentsCompleted.get();
    }
}
