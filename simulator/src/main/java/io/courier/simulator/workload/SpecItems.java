package io.courier.simulator.workload;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code key=value} items of a spec string, split on one separator character. Empty items, items
 * without {@code =}, empty keys or values and duplicate keys are rejected; {@link #rejectUnknown} rejects
 * keys nobody {@link #take took}, so a typo never silently falls back to a default.
 */
final class SpecItems {
    private final String owner;
    private final Map<String, String> values;
    private final Set<String> taken = new HashSet<>();

    private SpecItems(String owner, Map<String, String> values) {
        this.owner = owner;
        this.values = values;
    }

    /**
     * Splits {@code text} on {@code separator}; {@code owner} names the spec in messages (e.g.
     * {@code workload} or {@code flowSize}).
     */
    static SpecItems parse(String owner, String text, char separator) {
        Map<String, String> values = new LinkedHashMap<>();
        if (text.trim().isEmpty()) {
            return new SpecItems(owner, values);
        }
        for (String raw : split(text, separator)) {
            String item = raw.trim();
            if (item.isEmpty()) {
                throw new WorkloadSpecException(owner, "empty item in '" + text + "' (two '" + separator
                        + "' in a row or a trailing '" + separator + "')");
            }
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new WorkloadSpecException(owner, "item '" + item + "' is not of the form key=value");
            }
            String key = item.substring(0, eq).trim();
            String value = item.substring(eq + 1).trim();
            if (key.isEmpty()) {
                throw new WorkloadSpecException(owner, "item '" + item + "' has an empty key");
            }
            if (value.isEmpty()) {
                throw new WorkloadSpecException(key, "empty value");
            }
            if (values.put(key, value) != null) {
                throw new WorkloadSpecException(key, "given more than once in " + owner + " spec '" + text + "'");
            }
        }
        return new SpecItems(owner, values);
    }

    private static List<String> split(String text, char separator) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == separator) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }

    /** The value of {@code key}, or {@code null} when absent; the key counts as known either way. */
    String take(String key) {
        taken.add(key);
        return values.get(key);
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    /** Fails on the first key that was never taken, listing the valid ones. */
    void rejectUnknown(Collection<String> valid) {
        for (String key : values.keySet()) {
            if (!taken.contains(key)) {
                throw new WorkloadSpecException(key, "unknown key in " + owner + " spec; valid keys: "
                        + String.join(", ", valid));
            }
        }
    }
}
