package io.courier.shuffle.proxy.server;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the serving side of one proxy (thread-safe), read by tests and metrics. */
public final class ServerCounters {
    private final ConcurrentMap<String, AtomicLong> connectionsByPeer = new ConcurrentHashMap<>();
    final AtomicLong streamsServed = new AtomicLong();
    final AtomicLong streamsRefused = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong protocolErrors = new AtomicLong();

    void connectionFrom(String peer) {
        connectionsByPeer.computeIfAbsent(peer, p -> new AtomicLong()).incrementAndGet();
    }

    /** Connections accepted per peer node id (from its handshake), since start. */
    public Map<String, Long> connectionsByPeer() {
        Map<String, Long> m = new TreeMap<>();
        for (Map.Entry<String, AtomicLong> e : connectionsByPeer.entrySet()) {
            m.put(e.getKey(), e.getValue().get());
        }
        return Collections.unmodifiableMap(m);
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
