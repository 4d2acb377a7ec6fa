package io.courier.simulator.workload;

import java.util.Random;

/**
 * An inclusive integer range {@code A-B} (or a single {@code N}, meaning {@code N-N}) drawn uniformly.
 * Immutable.
 */
final class IntRange {
    private final int min;
    private final int max;

    IntRange(int min, int max) {
        this.min = min;
        this.max = max;
    }

    /** Parses {@code A-B} or {@code N}; both ends must lie in {@code [lowest, highest]} and {@code A <= B}. */
    static IntRange parse(String key, String text, int lowest, int highest) {
        String t = text.trim();
        int dash = t.indexOf('-', 1); // from 1: a leading '-' is a sign, reported as out of range below
        if (dash < 0) {
            int n = Quantities.intIn(key, t, lowest, highest);
            return new IntRange(n, n);
        }
        int a = Quantities.intIn(key, t.substring(0, dash), lowest, highest);
        int b = Quantities.intIn(key, t.substring(dash + 1), lowest, highest);
        if (a > b) {
            throw new WorkloadSpecException(key, "empty range " + text + " (the lower end exceeds the upper end)");
        }
        return new IntRange(a, b);
    }

    int min() {
        return min;
    }

    int max() {
        return max;
    }

    int draw(Random rng) {
        return min == max ? min : min + rng.nextInt(max - min + 1);
    }

    @Override
    public String toString() {
        return min == max ? Integer.toString(min) : min + "-" + max;
    }
}
