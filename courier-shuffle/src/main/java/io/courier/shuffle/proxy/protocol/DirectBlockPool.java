package io.courier.shuffle.proxy.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Reusable direct buffers for the payloads of DATA frames (at most {@link Wire#MAX_DATA} bytes) a task reads from
 * its node's proxy. A payload read into a direct buffer comes straight from the kernel (no copy through the JDK's
 * temporary buffer and no zero-filled array per block); its consumer copies it once into its own array and gives
 * the buffer back. The pool keeps at most {@code retained} free buffers and allocates beyond that: how many are in
 * use at once is bounded by the connection's credit (the windows of its open streams), not by the pool. A new
 * buffer is as large as the payload it is taken for (in pages): a reducer of small segments fetches few blocks,
 * too few to reuse much, and a 64 KiB buffer per 4 KiB block would zero sixteen times the bytes it carries.
 *
 * <p>Thread-safe: the connection's reader thread takes, consumers give back from their own threads.
 */
public final class DirectBlockPool {
    private static final int PAGE = 4096;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private final int retained;
    private long allocated;

    /** @param retained the most free buffers kept for reuse (at least 0) */
    public DirectBlockPool(int retained) {
        if (retained < 0) {
            throw new IllegalArgumentException("a block pool retains at least 0 buffers, not " + retained);
        }
        this.retained = retained;
    }

    /**
     * A cleared buffer of at least {@code bytes} (≤ {@link Wire#MAX_DATA}), owned by the caller until {@link #give}n
     * back. A free buffer too small for it is dropped (left to the collector), not kept.
     */
    public ByteBuffer take(int bytes) {
        ByteBuffer b;
        synchronized (this) {
            b = free.poll();
            if (b != null && b.capacity() < bytes) {
                b = null;
            }
            if (b == null) {
                allocated++;
            }
        }
        if (b == null) {
            int pages = Math.max(1, (bytes + PAGE - 1) / PAGE);
            return ByteBuffer.allocateDirect(Math.min(Wire.MAX_DATA, pages * PAGE));
        }
        b.clear();
        return b;
    }

    /** Returns a buffer {@link #take}n from this pool; the caller must not use it afterwards. */
    public void give(ByteBuffer b) {
        synchronized (this) {
            if (free.size() < retained) {
                free.push(b);
            }
        }
    }

    /** Buffers allocated so far (tests: reuse shows as a count that stops growing). */
    public synchronized long allocated() {
        return allocated;
    }

    /** Free buffers kept now. */
    public synchronized int free() {
        return free.size();
    }
}
