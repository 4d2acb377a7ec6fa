package io.courier.simulator.workload;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the numbers of workload specs: plain decimals, integers, byte sizes with binary suffixes
 * ({@code B}, {@code KiB}, {@code MiB}, {@code GiB}, {@code TiB}; none = bytes) and rates ({@code bps},
 * {@code Kbps}, {@code Mbps}, {@code Gbps} in decimal bits per second, or a size followed by {@code /s}).
 * Every error names the spec key and the text.
 */
final class Quantities {
    // Plain decimals only: Double.parseDouble would also take "NaN", "Infinity", hex floats and "1d".
    private static final Pattern NUMBER_AND_UNIT =
            Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?\\s*([A-Za-z/]*)");
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    private Quantities() {
    }

    /** A finite decimal {@code >= 0}, without unit. */
    static double real(String key, String text) {
        Matcher m = NUMBER_AND_UNIT.matcher(text.trim());
        if (!m.matches() || !m.group(3).isEmpty()) {
            throw new WorkloadSpecException(key, "'" + text + "' is not a plain non-negative decimal number");
        }
        return finite(key, text, Double.parseDouble(m.group(1) + (m.group(2) == null ? "" : m.group(2))));
    }

    /** A finite decimal {@code > 0}. */
    static double positiveReal(String key, String text) {
        double v = real(key, text);
        if (!(v > 0)) {
            throw new WorkloadSpecException(key, "must be > 0, got " + text);
        }
        return v;
    }

    static long integer(String key, String text) {
        String t = text.trim();
        if (!INTEGER.matcher(t).matches()) {
            throw new WorkloadSpecException(key, "'" + text + "' is not an integer");
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new WorkloadSpecException(key, "'" + text + "' is out of the range of a 64-bit integer");
        }
    }

    /** An integer in {@code [min, max]}. */
    static int intIn(String key, String text, int min, int max) {
        long v = integer(key, text);
        if (v < min || v > max) {
            throw new WorkloadSpecException(key, "must be in [" + min + ", " + max + "], got " + text);
        }
        return (int) v;
    }

    /** A byte size {@code > 0}, e.g. {@code 8MiB}, {@code 1.5GiB}, {@code 4096}. */
    static double bytes(String key, String text) {
        Matcher m = NUMBER_AND_UNIT.matcher(text.trim());
        if (!m.matches()) {
            throw new WorkloadSpecException(key, "'" + text + "' is not a size (a decimal number with an optional"
                    + " unit B, KiB, MiB, GiB or TiB)");
        }
        double factor = sizeFactor(key, text, m.group(3));
        double v = finite(key, text, number(m) * factor);
        if (!(v > 0)) {
            throw new WorkloadSpecException(key, "size must be > 0, got " + text);
        }
        return v;
    }

    /** A rate {@code > 0} in bytes/s, e.g. {@code 1Gbps} (= 125 000 000 B/s) or {@code 128MiB/s}. */
    static double bytesPerSecond(String key, String text) {
        Matcher m = NUMBER_AND_UNIT.matcher(text.trim());
        if (!m.matches()) {
            throw new WorkloadSpecException(key, "'" + text + "' is not a rate (e.g. 1Gbps, 100Mbps, 128MiB/s)");
        }
        String unit = m.group(3);
        double v;
        if (unit.endsWith("/s")) {
            v = number(m) * sizeFactor(key, text, unit.substring(0, unit.length() - 2));
        } else if (unit.equals("bps")) {
            v = number(m) / 8;
        } else if (unit.equals("Kbps")) {
            v = number(m) * 1e3 / 8;
        } else if (unit.equals("Mbps")) {
            v = number(m) * 1e6 / 8;
        } else if (unit.equals("Gbps")) {
            v = number(m) * 1e9 / 8;
        } else {
            throw new WorkloadSpecException(key, "rate '" + text + "' needs a unit: bps, Kbps, Mbps, Gbps (bits/s)"
                    + " or B/s, KiB/s, MiB/s, GiB/s (bytes/s)");
        }
        v = finite(key, text, v);
        if (!(v > 0)) {
            throw new WorkloadSpecException(key, "rate must be > 0, got " + text);
        }
        return v;
    }

    private static double number(Matcher m) {
        return Double.parseDouble(m.group(1) + (m.group(2) == null ? "" : m.group(2)));
    }

    private static double sizeFactor(String key, String text, String unit) {
        if (unit.isEmpty() || unit.equals("B")) {
            return 1;
        }
        if (unit.equals("KiB")) {
            return 1024.0;
        }
        if (unit.equals("MiB")) {
            return 1048576.0;
        }
        if (unit.equals("GiB")) {
            return 1073741824.0;
        }
        if (unit.equals("TiB")) {
            return 1099511627776.0;
        }
        throw new WorkloadSpecException(key, "unknown size unit '" + unit + "' in '" + text
                + "' (use B, KiB, MiB, GiB or TiB)");
    }

    private static double finite(String key, String text, double v) {
        if (Double.isInfinite(v) || Double.isNaN(v)) {
            throw new WorkloadSpecException(key, "'" + text + "' is not finite");
        }
        return v;
    }
}
