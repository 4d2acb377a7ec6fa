package io.courier.shuffle.proxy.client;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the fetching side of one proxy (thread-safe). */
public final class ClientCounters {
    private final ConcurrentMap<String, AtomicLong> connectionsByPeer = new ConcurrentHashMap<>();
    final AtomicLong rejectedFrames = new AtomicLong();
    final AtomicLong bytesReceived = new AtomicLong();
    final AtomicLong streamsFailed = new AtomicLong();

    void connectionOpened(String peer) {
        connectionsByPeer.computeIfAbsent(peer, p -> new AtomicLong()).incrementAndGet();
    }

    /** Connections this proxy opened to each peer since start. */
    public Map<String, Long> connectionsByPeer() {
        Map<String, Long> m = new TreeMap<>();
        for (Map.Entry<String, AtomicLong> e : connectionsByPeer.entrySet()) {
            m.put(e.getKey(), e.getValue().get());
        }
        return Collections.unmodifiableMap(m);
    }

    /** Frames dropped because they named no open stream. */
    public long rejectedFrames() {
        return rejectedFrames.get();
    }

    public long bytesReceived() {
        return bytesReceived.get();
    }

    public long streamsFailed() {
        return streamsFailed.get();
    }
}
