package io.courier.shuffle.proxy;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connections per peer node since start: what proves "one connection per node pair". A peer's id is what its
 * handshake declares, so the table keeps at most {@link #MAX_PEERS} ids and counts connections of any further
 * id under {@link #OTHER_PEERS}: a process inventing ids cannot grow it without bound. Thread-safe: event loops
 * count, any thread reads.
 */
public final class PeerConnectionCounts {
    /** Distinct peer ids kept (a cluster's nodes, with room to spare). */
    public static final int MAX_PEERS = 8192;
    /** Where connections of ids beyond {@link #MAX_PEERS} are counted. */
    public static final String OTHER_PEERS = "(other peers)";
    private final ConcurrentMap<String, AtomicLong> byPeer = new ConcurrentHashMap<>();

    /** One more connection with {@code peer}. */
    public void add(String peer) {
        AtomicLong n = byPeer.get(peer);
        if (n == null) {
            // Racing adds may pass MAX_PEERS by a few entries (one per event loop), never by more.
            n = byPeer.size() < MAX_PEERS ? byPeer.computeIfAbsent(peer, p -> new AtomicLong())
                    : byPeer.computeIfAbsent(OTHER_PEERS, p -> new AtomicLong());
        }
        n.incrementAndGet();
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
