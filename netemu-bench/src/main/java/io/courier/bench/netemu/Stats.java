package io.courier.bench.netemu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Order statistics of small samples (min/median/max, percentiles). Stateless. */
final class Stats {
    private Stats() {
    }

    /** Median of an ascending list; NaN when empty. */
    static double median(List<Double> sorted) {
        int n = sorted.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** {min, median, max} of the values (any order); NaNs when empty. */
    static double[] minMedMax(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        s.removeIf(v -> v == null || v.isNaN());
        if (s.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        Collections.sort(s);
        return new double[] {s.get(0), median(s), s.get(s.size() - 1)};
    }
}
