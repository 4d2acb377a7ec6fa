package io.courier.shuffle.proxy;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connections per peer node since start: what proves "one connection per node pair". Thread-safe: event
 * loops count, any thread reads.
 */
public final class PeerConnectionCounts {
    private final ConcurrentMap<String, AtomicLong> byPeer = new ConcurrentHashMap<>();

    /** One more connection with {@code peer}. */
    public void add(String peer) {
        byPeer.computeIfAbsent(peer, p -> new AtomicLong()).incrementAndGet();
    }

    /** A copy, ordered by peer. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        for (Map.Entry<String, AtomicLong> e : byPeer.entrySet()) {
            m.put(e.getKey(), e.getValue().get());
        }
        return Collections.unmodifiableMap(m);
    }
}
