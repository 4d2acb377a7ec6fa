package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.PeerConnectionCounts;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the serving side of one proxy (thread-safe), read by tests and metrics. */
public final class ServerCounters {
    private final PeerConnectionCounts connectionsByPeer = new PeerConnectionCounts();
    final AtomicLong streamsServed = new AtomicLong();
    final AtomicLong streamsRefused = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong protocolErrors = new AtomicLong();
    private final AtomicLong connectionsOpen = new AtomicLong();
    private final ConcurrentMap<ErrorCode, AtomicLong> refusedByCode = new ConcurrentHashMap<>();

    void connectionActive() {
        connectionsOpen.incrementAndGet();
    }

    void connectionInactive() {
        connectionsOpen.decrementAndGet();
    }

    void refused(ErrorCode code) {
        streamsRefused.incrementAndGet();
        refusedByCode.computeIfAbsent(code, c -> new AtomicLong()).incrementAndGet();
    }

    /** Peer connections currently open to this proxy's server. */
    public long connectionsOpen() {
        return connectionsOpen.get();
    }

    /** Refused fetches per error code since start (a copy). */
    public Map<ErrorCode, Long> refusedByCode() {
        Map<ErrorCode, Long> m = new EnumMap<>(ErrorCode.class);
        for (Map.Entry<ErrorCode, AtomicLong> e : refusedByCode.entrySet()) {
            m.put(e.getKey(), e.getValue().get());
        }
        return Collections.unmodifiableMap(m);
    }

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
