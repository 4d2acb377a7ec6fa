package io.courier.simulator.engine;

/**
 * The completion instants of one decision interval's flows as a binary min-heap of packed {@code long}
 * keys (see {@link #key}). Built in linear time; popping costs {@code O(log n)}. An interval usually ends
 * after a few completions (at the next decision), so heapifying beats sorting every running flow.
 * Owned by one interval of one run, single-threaded.
 */
final class CompletionQueue {
    /** Low bits of a key that hold the position; positions must stay below this. */
    static final long POSITION_MASK = (1L << 22) - 1;

    private final long[] heap;
    private int size;

    /** Takes ownership of {@code keys[0..n)} (built with {@link #key}) and orders them as a heap. */
    CompletionQueue(long[] keys, int n) {
        this.heap = keys;
        this.size = n;
        for (int i = (n >>> 1) - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    /**
     * The sort key of a completion {@code offset} seconds after the interval start at {@code position}:
     * the offset's bits with the lowest 22 replaced by the position. Non-negative doubles order like their
     * bits, so keys order by instant; instants closer than 2^-30 relative may swap, within the tolerance
     * that batches simultaneous completions anyway.
     */
    static long key(double offset, int position) {
        return (Double.doubleToLongBits(Math.max(0.0, offset)) & ~POSITION_MASK) | position;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Position of the earliest completion; the queue must not be empty. */
    int peek() {
        return (int) (heap[0] & POSITION_MASK);
    }

    /** Removes the earliest completion and returns its position. */
    int poll() {
        int top = (int) (heap[0] & POSITION_MASK);
        heap[0] = heap[--size];
        if (size > 0) {
            siftDown(0);
        }
        return top;
    }

    private void siftDown(int i) {
        long x = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            long c = heap[child];
            int right = child + 1;
            if (right < size && heap[right] < c) {
                child = right;
                c = heap[right];
            }
            if (x <= c) {
                break;
            }
            heap[i] = c;
            i = child;
        }
        heap[i] = x;
    }
}
