package io.courier.simulator.report;

import java.util.Arrays;

/**
 * Nearest-rank percentiles: the p-th percentile of n values is the smallest value v such that at least
 * p % of the values are &lt;= v, i.e. the value at 1-based rank ⌈p/100 · n⌉ of the sorted values (rank 1 for
 * p = 0). It is always one of the observed values, never an interpolation, so a p99 CCT is the CCT of an
 * actual coflow; with fewer than 100 values p99 is the maximum.
 */
public final class Percentiles {
    private Percentiles() {
    }

    /** The p-th nearest-rank percentile of {@code values} (not modified); NaN when there are none. */
    public static double of(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return ofSorted(sorted, p);
    }

    /** As {@link #of}, for values already sorted ascending. */
    public static double ofSorted(double[] sorted, double p) {
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in [0, 100], got " + p);
        }
        if (sorted.length == 0) {
            return Double.NaN;
        }
        // The small tolerance keeps exact products (p = 90, n = 10 gives rank 9, not 10 from 9.000000000000002).
        int rank = (int) Math.ceil(p / 100.0 * sorted.length - 1e-9);
        return sorted[Math.max(rank, 1) - 1];
    }
}
