package io.courier.simulator.report;

import java.util.Locale;

/** Number formatting shared by the CSV and table writers. */
final class Numbers {
    private Numbers() {
    }

    /**
     * Exact and locale-independent: integral values below 2^53 without a fraction (byte counts stay
     * readable), everything else as {@link Double#toString} (round-trips exactly); NaN as the empty string.
     */
    static String exact(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 9007199254740992.0) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    /** Four significant digits for people; "-" for NaN. */
    static String human(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        double a = Math.abs(v);
        if (a != 0 && (a >= 1e6 || a < 1e-3)) {
            return String.format(Locale.ROOT, "%.3e", v);
        }
        int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
