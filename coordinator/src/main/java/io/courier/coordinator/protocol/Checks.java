package io.courier.coordinator.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Argument checks shared by the message constructors: bad input fails where it is built or decoded. */
final class Checks {
    private Checks() {
    }

    static String text(String what, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(what + " must be a non-empty string");
        }
        return value;
    }

    static long nonNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must be >= 0, got " + value);
        }
        return value;
    }

    static double finiteNonNegative(String what, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(what + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    static <T> T notNull(String what, T value) {
        if (value == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        return value;
    }

    static <T> List<T> list(String what, List<T> value) {
        notNull(what, value);
        for (T t : value) {
            notNull("an element of " + what, t);
        }
        return Collections.unmodifiableList(new ArrayList<T>(value));
    }
}
