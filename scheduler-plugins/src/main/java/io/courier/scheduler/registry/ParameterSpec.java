package io.courier.scheduler.registry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One parameter a scheduler accepts: its name, type, default, valid range and where the default comes
 * from ({@code [paper]}, {@code [code]}, {@code [proposed]} as in SCHEDULERS.md). Immutable.
 */
public final class ParameterSpec {
    /** Value types a parameter can have. */
    public enum Kind { DOUBLE, INT, BOOLEAN, CHOICE }

    private final String name;
    private final Kind kind;
    private final String defaultValue;
    private final double min;
    private final boolean minExclusive;
    private final double max;
    private final List<String> choices;
    private final String description;

    private ParameterSpec(String name, Kind kind, String defaultValue, double min, boolean minExclusive, double max,
            List<String> choices, String description) {
        this.name = name;
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.min = min;
        this.minExclusive = minExclusive;
        this.max = max;
        this.choices = choices;
        this.description = description;
    }

    /** A real number {@code >= min} (or {@code > min} when {@code minExclusive}), finite unless max is +∞. */
    public static ParameterSpec real(String name, double defaultValue, double min, boolean minExclusive,
            String description) {
        return new ParameterSpec(name, Kind.DOUBLE, Double.toString(defaultValue), min, minExclusive,
                Double.POSITIVE_INFINITY, Collections.<String>emptyList(), description);
    }

    /** A real number {@code > 0}. */
    public static ParameterSpec positive(String name, double defaultValue, String description) {
        return real(name, defaultValue, 0.0, true, description);
    }

    /** An integer in {@code [min, max]}. */
    public static ParameterSpec integer(String name, int defaultValue, int min, int max, String description) {
        return new ParameterSpec(name, Kind.INT, Integer.toString(defaultValue), min, false, max,
                Collections.<String>emptyList(), description);
    }

    public static ParameterSpec bool(String name, boolean defaultValue, String description) {
        return new ParameterSpec(name, Kind.BOOLEAN, Boolean.toString(defaultValue), 0, false, 0,
                Collections.<String>emptyList(), description);
    }

    /** One of a fixed set of words. */
    public static ParameterSpec choice(String name, String defaultValue, String description, String... choices) {
        List<String> cs = Collections.unmodifiableList(new ArrayList<>(Arrays.asList(choices)));
        if (!cs.contains(defaultValue)) {
            throw new IllegalArgumentException("default " + defaultValue + " of " + name + " is not one of " + cs);
        }
        return new ParameterSpec(name, Kind.CHOICE, defaultValue, 0, false, 0, cs, description);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public List<String> choices() {
        return choices;
    }

    public String description() {
        return description;
    }

    /** Parses and range-checks a value; the message names the scheduler, the parameter and the rule. */
    Object parse(String scheduler, String raw) {
        String v = raw == null ? "" : raw.trim();
        String where = "parameter '" + name + "' of scheduler '" + scheduler + "'";
        switch (kind) {
            case DOUBLE: {
                double d;
                try {
                    d = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(where + " must be a number, got '" + raw + "'");
                }
                if (Double.isNaN(d) || (Double.isInfinite(d) && max != Double.POSITIVE_INFINITY)
                        || d < min || (minExclusive && d == min) || d > max) {
                    throw new IllegalArgumentException(where + " must be " + (minExclusive ? "> " : ">= ") + min
                            + ", got '" + raw + "'");
                }
                return d;
            }
            case INT: {
                int i;
                try {
                    i = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(where + " must be an integer, got '" + raw + "'");
                }
                if (i < min || i > max) {
                    throw new IllegalArgumentException(where + " must be in [" + (long) min + ", " + (long) max
                            + "], got " + i);
                }
                return i;
            }
            case BOOLEAN:
                if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(v);
                }
                throw new IllegalArgumentException(where + " must be true or false, got '" + raw + "'");
            default:
                if (!choices.contains(v)) {
                    throw new IllegalArgumentException(where + " must be one of " + choices + ", got '" + raw + "'");
                }
                return v;
        }
    }

    @Override
    public String toString() {
        return name + " (" + kind.name().toLowerCase() + ", default " + defaultValue + "): " + description;
    }
}
