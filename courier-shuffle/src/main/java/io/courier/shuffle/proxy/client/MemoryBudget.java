package io.courier.shuffle.proxy.client;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A byte budget shared by several owners (the node-wide limit on bytes in flight towards local reducers).
 * A stream reserves its window before it is opened and returns it when its consumer is done with it;
 * owners waiting for room register a callback that runs after every release. A waiting owner also says the
 * best rank it waits with (the receive plan's strict priority): a reservation for a worse rank fails while an
 * owner with a better rank waits, so freed room goes to the preferred coflow whichever connection it waits on.
 * Thread-safe.
 */
public final class MemoryBudget {
    private final long capacity;
    private final CopyOnWriteArrayList<Runnable> waiters = new CopyOnWriteArrayList<>();
    /** The best rank each waiting owner waits with (absent: waits with no preference). Guarded by this. */
    private final Map<Runnable, Integer> waitingRanks = new HashMap<>();
    private long used;

    public MemoryBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("memory budget must be > 0 bytes, got " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized boolean tryReserve(long bytes) {
        return tryReserve(bytes, Integer.MAX_VALUE, null);
    }

    /**
     * Reserves {@code bytes} for a stream of {@code rank} on behalf of {@code owner} (its waiter callback, or null),
     * unless another owner waits with a better (smaller) rank or there is no room.
     */
    public synchronized boolean tryReserve(long bytes, int rank, Runnable owner) {
        for (Map.Entry<Runnable, Integer> w : waitingRanks.entrySet()) {
            if (w.getValue() < rank && w.getKey() != owner) {
                return false;
            }
        }
        if (used + bytes > capacity) {
            return false;
        }
        used += bytes;
        return true;
    }

    public void release(long bytes) {
        synchronized (this) {
            used -= bytes;
            if (used < 0) {
                throw new IllegalStateException("memory budget released more than reserved (" + used + ")");
            }
        }
        for (Runnable w : waiters) {
            w.run();
        }
    }

    public synchronized long used() {
        return used;
    }

    public long capacity() {
        return capacity;
    }

    /** Registers {@code r} once (registering it again while it waits has no effect). */
    public void addWaiter(Runnable r) {
        waiters.addIfAbsent(r);
    }

    /**
     * Registers {@code r} once, waiting for room for a stream of {@code rank}: until it is removed or registered
     * again with another rank, reservations for worse ranks fail. {@code Integer.MAX_VALUE}: no preference.
     */
    public void addWaiter(Runnable r, int rank) {
        synchronized (this) {
            if (rank == Integer.MAX_VALUE) {
                waitingRanks.remove(r);
            } else {
                waitingRanks.put(r, rank);
            }
        }
        waiters.addIfAbsent(r);
    }

    /** Owners currently waiting for room. */
    public int waiters() {
        return waiters.size();
    }

    public void removeWaiter(Runnable r) {
        synchronized (this) {
            waitingRanks.remove(r);
        }
        waiters.remove(r);
    }
}
