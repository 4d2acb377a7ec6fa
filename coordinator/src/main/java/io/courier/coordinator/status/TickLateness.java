package io.courier.coordinator.status;

import java.util.Arrays;

/**
 * How late the scheduling actor's epoch ticks ran after their boundary (start + k · epoch): a histogram over
 * fixed buckets (upper bounds in {@link #BOUNDS_MICROS}, the last bucket open) plus the largest lateness seen.
 * Immutable; {@link #minus} gives the distribution over a window between two status snapshots.
 */
public final class TickLateness {
    /** Bucket upper bounds (exclusive), microseconds: fine below one 10 ms epoch, coarse beyond. */
    private static final long[] BOUNDS_MICROS = {
        100, 200, 300, 500, 750, 1_000, 1_500, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000,
        12_500, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 75_000, 100_000, 150_000, 200_000, 300_000,
        500_000, 1_000_000, 2_000_000, 5_000_000};

    public static final TickLateness EMPTY = new TickLateness(new long[BOUNDS_MICROS.length + 1], 0);

    private final long[] counts;
    private final long maxNanos;

    TickLateness(long[] counts, long maxNanos) {
        if (counts.length != BOUNDS_MICROS.length + 1) {
            throw new IllegalArgumentException("tick lateness needs " + (BOUNDS_MICROS.length + 1) + " buckets, got "
                    + counts.length);
        }
        this.counts = counts.clone();
        this.maxNanos = maxNanos;
    }

    /** The bucket a lateness falls into. */
    static int bucketOf(long nanos) {
        long micros = Math.max(0, nanos) / 1_000L;
        for (int i = 0; i < BOUNDS_MICROS.length; i++) {
            if (micros < BOUNDS_MICROS[i]) {
                return i;
            }
        }
        return BOUNDS_MICROS.length;
    }

    public long count() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /** Largest lateness recorded since the start (not per window). */
    public long maxNanos() {
        return maxNanos;
    }

    /**
     * The upper bound (ms) of the bucket holding the p-quantile, 0 &lt; p ≤ 1; {@code Double.POSITIVE_INFINITY} when
     * it lies in the open last bucket, NaN when empty.
     */
    public double quantileUpperMillis(double p) {
        long n = count();
        if (n == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(p * n);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return i < BOUNDS_MICROS.length ? BOUNDS_MICROS[i] / 1000.0 : Double.POSITIVE_INFINITY;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Ticks of this snapshot not in the earlier one (the max stays this snapshot's). */
    public TickLateness minus(TickLateness earlier) {
        long[] d = new long[counts.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = counts[i] - earlier.counts[i];
        }
        return new TickLateness(d, maxNanos);
    }

    /** Mutable recorder; owned by one thread (the scheduling actor's). */
    public static final class Recorder {
        private final long[] counts = new long[BOUNDS_MICROS.length + 1];
        private long maxNanos;

        public void record(long latenessNanos) {
            counts[bucketOf(latenessNanos)]++;
            maxNanos = Math.max(maxNanos, latenessNanos);
        }

        public TickLateness snapshot() {
            return new TickLateness(counts, maxNanos);
        }
    }

    @Override
    public String toString() {
        return "TickLateness(" + Arrays.toString(counts) + ", max " + maxNanos / 1e6 + " ms)";
    }
}
