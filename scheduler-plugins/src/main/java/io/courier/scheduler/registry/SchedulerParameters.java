package io.courier.scheduler.registry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Validated parameter values of one scheduler instance, defaults filled in. Immutable. */
public final class SchedulerParameters {
    private final String scheduler;
    private final Map<String, Object> values;

    private SchedulerParameters(String scheduler, Map<String, Object> values) {
        this.scheduler = scheduler;
        this.values = values;
    }

    /**
     * Checks {@code given} against {@code specs}: unknown names are rejected with the list of valid ones,
     * values are parsed and range-checked, absent ones take their defaults.
     */
    public static SchedulerParameters resolve(String scheduler, List<ParameterSpec> specs, Map<String, String> given) {
        Map<String, ParameterSpec> byName = new LinkedHashMap<>();
        for (ParameterSpec s : specs) {
            byName.put(s.name(), s);
        }
        for (String key : given.keySet()) {
            if (!byName.containsKey(key)) {
                throw new IllegalArgumentException("unknown parameter '" + key + "' for scheduler '" + scheduler
                        + "'; valid parameters: " + (byName.isEmpty() ? "(none)" : String.join(", ", byName.keySet())));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (ParameterSpec s : specs) {
            String raw = given.containsKey(s.name()) ? given.get(s.name()) : s.defaultValue();
            values.put(s.name(), s.parse(scheduler, raw));
        }
        return new SchedulerParameters(scheduler, Collections.unmodifiableMap(values));
    }

    private Object get(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("scheduler '" + scheduler + "' has no parameter '" + name + "'");
        }
        return v;
    }

    public double getDouble(String name) {
        return (Double) get(name);
    }

    public int getInt(String name) {
        return (Integer) get(name);
    }

    public boolean getBoolean(String name) {
        return (Boolean) get(name);
    }

    public String getChoice(String name) {
        return (String) get(name);
    }

    /** All values by name, in declaration order. */
    public Map<String, Object> asMap() {
        return values;
    }

    @Override
    public String toString() {
        return scheduler + values;
    }
}
