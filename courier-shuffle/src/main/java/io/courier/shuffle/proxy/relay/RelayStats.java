package io.courier.shuffle.proxy.relay;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of the relaying side of one proxy (thread-safe: task connections' event loops write, anyone reads).
 * "Outstanding" bytes of a stream are those the relay took from the source but the task has not yet credited
 * back (in the relay's or the task's buffers, or on the wire to the task): end-to-end credit bounds them by
 * the stream's initial window.
 */
public final class RelayStats {
    final AtomicLong taskConnections = new AtomicLong();
    final AtomicLong refusedConnections = new AtomicLong();
    final AtomicLong overloadedConnections = new AtomicLong();
    final AtomicLong domainSocketConnections = new AtomicLong();
    final AtomicLong refusedTaskUsers = new AtomicLong();
    final AtomicInteger openTaskConnections = new AtomicInteger();
    final AtomicLong streamsOpened = new AtomicLong();
    final AtomicLong streamsCompleted = new AtomicLong();
    final AtomicLong streamsFailed = new AtomicLong();
    final AtomicLong streamsCancelled = new AtomicLong();
    final AtomicLong bytesRelayed = new AtomicLong();
    final AtomicLong outstandingBytes = new AtomicLong();
    final AtomicLong maxStreamOutstanding = new AtomicLong();

    void streamOutstanding(long bytes) {
        long m;
        while (bytes > (m = maxStreamOutstanding.get())) {
            if (maxStreamOutstanding.compareAndSet(m, bytes)) {
                return;
            }
        }
    }

    /** Task connections accepted since start. */
    public long taskConnections() {
        return taskConnections.get();
    }

    /** Task connections refused (remote address while relaying is local-only). */
    public long refusedConnections() {
        return refusedConnections.get();
    }

    /** Task connections refused because the relay's cap was reached (answered OVERLOADED with a retry-after). */
    public long overloadedConnections() {
        return overloadedConnections.get();
    }

    /** Task connections accepted on the relay's domain socket (the rest came over loopback TCP). */
    public long domainSocketConnections() {
        return domainSocketConnections.get();
    }

    /**
     * Task connections refused by the task-user check: a task whose OS user is not its job's, whose user could
     * not be told, or that connected over TCP to a proxy that checks users.
     */
    public long refusedTaskUsers() {
        return refusedTaskUsers.get();
    }

    /** Task connections open now. */
    public int openTaskConnections() {
        return openTaskConnections.get();
    }

    public long streamsOpened() {
        return streamsOpened.get();
    }

    public long streamsCompleted() {
        return streamsCompleted.get();
    }

    /** Streams that ended with an ERROR sent to the task. */
    public long streamsFailed() {
        return streamsFailed.get();
    }

    /** Streams cancelled by their task or by the task connection closing. */
    public long streamsCancelled() {
        return streamsCancelled.get();
    }

    public long bytesRelayed() {
        return bytesRelayed.get();
    }

    /** Bytes of open streams taken from sources and not yet credited back by their tasks. */
    public long outstandingBytes() {
        return outstandingBytes.get();
    }

    /** The most outstanding bytes any single stream ever had (bounded by the stream window). */
    public long maxStreamOutstanding() {
        return maxStreamOutstanding.get();
    }
}
