package io.courier.shuffle.proxy.client;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A byte budget shared by several owners (the node-wide limit on bytes in flight towards local reducers).
 * A stream reserves its window before it is opened and returns it when its consumer is done with it;
 * owners waiting for room register a callback that runs after every release. Thread-safe.
 */
public final class MemoryBudget {
    private final long capacity;
    private final CopyOnWriteArrayList<Runnable> waiters = new CopyOnWriteArrayList<>();
    private long used;

    public MemoryBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("memory budget must be > 0 bytes, got " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized boolean tryReserve(long bytes) {
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

    /** Owners currently waiting for room. */
    public int waiters() {
        return waiters.size();
    }

    public void removeWaiter(Runnable r) {
        waiters.remove(r);
    }
}
