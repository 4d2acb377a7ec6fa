package io.courier.demo;

import java.util.Arrays;

/** The median the benchmarks report (of an even count, the mean of the middle two). */
final class Medians {
    private Medians() {
    }

    /** The median of {@code v}, or NaN for none. */
    static double of(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
