package io.courier.scheduler.primitives;

/**
 * A binary min-heap of (level, resource) pairs in two primitive arrays, for {@link MaxMin}'s saturation
 * events: it runs once per queue group and decision over a few hundred resources, and a
 * {@code PriorityQueue<double[]>} spent more time boxing, growing and calling its comparator than the
 * filling itself. Sifts exactly as {@code java.util.PriorityQueue} does (same comparisons, same moves), so
 * equal levels leave the heap in the same order as before and results stay bit-identical. Not thread-safe.
 */
final class LevelHeap {
    private final double[] level;
    private final int[] resource;
    private int size;

    /** @param capacity the most entries held at once (MaxMin: one per resource) */
    LevelHeap(int capacity) {
        level = new double[Math.max(1, capacity)];
        resource = new int[level.length];
    }

    boolean isEmpty() {
        return size == 0;
    }

    double peekLevel() {
        return level[0];
    }

    int peekResource() {
        return resource[0];
    }

    void add(double l, int r) {
        if (size == level.length) {
            throw new IllegalStateException("level heap full at " + size + " entries");
        }
        int k = size++;
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (Double.compare(l, level[parent]) >= 0) {
                break;
            }
            level[k] = level[parent];
            resource[k] = resource[parent];
            k = parent;
        }
        level[k] = l;
        resource[k] = r;
    }

    /**
     * The resource that saturates next in a filling, left at the top with its level ({@link #peekLevel}), or -1 when
     * no resource with unfrozen flows is left. The heap is lazy: an entry whose resource has no unfrozen flow left is
     * dropped, and one whose level has moved since it was added (flows frozen on the resource by other resources) is
     * put back at the resource's current level {@code (residual − frozenUse) / unfrozen}.
     */
    int nextSaturation(double[] residual, double[] frozenUse, int[] unfrozen) {
        while (size > 0) {
            int p = resource[0];
            if (unfrozen[p] == 0) {
                poll();
                continue;
            }
            double current = (residual[p] - frozenUse[p]) / unfrozen[p];
            if (current != level[0]) {
                poll();
                add(current, p);
                continue;
            }
            return p;
        }
        return -1;
    }

    void poll() {
        int n = --size;
        if (n > 0) {
            siftDown(level[n], resource[n], n);
        }
    }

    private void siftDown(double l, int r, int n) {
        int k = 0;
        int half = n >>> 1;
        while (k < half) {
            int child = (k << 1) + 1;
            int right = child + 1;
            if (right < n && Double.compare(level[child], level[right]) > 0) {
                child = right;
            }
            if (Double.compare(l, level[child]) <= 0) {
                break;
            }
            level[k] = level[child];
            resource[k] = resource[child];
            k = child;
        }
        level[k] = l;
        resource[k] = r;
    }
}
