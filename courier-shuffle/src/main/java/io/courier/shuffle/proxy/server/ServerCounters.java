package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.PeerConnectionCounts;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the serving side of one proxy (thread-safe), read by tests and metrics. */
public final class ServerCounters {
    private final PeerConnectionCounts connectionsByPeer = new PeerConnectionCounts();
    final AtomicLong streamsServed = new AtomicLong();
    final AtomicLong streamsRefused = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong protocolErrors = new AtomicLong();

    void connectionFrom(String peer) {
        connectionsByPeer.add(peer);
    }

    /** Connections accepted per peer node id (from its handshake), since start. */
    public Map<String, Long> connectionsByPeer() {
        return connectionsByPeer.snapshot();
    }

    public long streamsServed() {
        return streamsServed.get();
    }

    public long streamsRefused() {
        return streamsRefused.get();
    }

    public long bytesSent() {
        return bytesSent.get();
    }

    public long protocolErrors() {
        return protocolErrors.get();
    }
}
