package io.courier.shuffle.proxy.relay;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Running counts of one {@link LocalProxyClient} across its connections. Thread-safe. */
final class RelayTally {
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong segments = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong rejectedFrames = new AtomicLong();
    private final Set<String> servingConnections = ConcurrentHashMap.newKeySet();

    void received(int n) {
        bytes.addAndGet(n);
    }

    void completed() {
        segments.incrementAndGet();
    }

    void failed() {
        failed.incrementAndGet();
    }

    void rejected() {
        rejectedFrames.incrementAndGet();
    }

    void servedBy(String connection) {
        servingConnections.add(connection);
    }

    RelayCounters snapshot() {
        return new RelayCounters(bytes.get(), segments.get(), failed.get(),
                Collections.unmodifiableSet(new TreeSet<>(servingConnections)));
    }
}
