package io.courier.simulator.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of a {@code --scheduler} list: a registry name with optional parameters,
 * {@code name} or {@code name(key=value,key=value)}. Lists separate entries by commas outside parentheses,
 * so {@code fair,aalo(firstThreshold=4194304,epoch=1),varys} has three entries. Names and keys are not
 * checked here (the scheduler registry does that); the syntax is. Immutable.
 */
public final class SchedulerSpec {
    private final String name;
    private final Map<String, String> parameters;

    public SchedulerSpec(String name, Map<String, String> parameters) {
        this.name = name;
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** Parses one or more comma-separated entries; the message of a failure quotes the list and the entry. */
    public static List<SchedulerSpec> parseList(String list) {
        List<SchedulerSpec> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '(') {
                depth++;
                if (depth > 1) {
                    throw new UsageException("nested '(' in scheduler list '" + list + "'");
                }
            } else if (c == ')') {
                depth--;
                if (depth < 0) {
                    throw new UsageException("')' without '(' in scheduler list '" + list + "'");
                }
            } else if (c == ',' && depth == 0) {
                out.add(parse(list.substring(start, i), list));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new UsageException("'(' without ')' in scheduler list '" + list + "'");
        }
        return out;
    }

    private static SchedulerSpec parse(String entry, String list) {
        String e = entry.trim();
        if (e.isEmpty()) {
            throw new UsageException("empty entry in scheduler list '" + list + "'");
        }
        int open = e.indexOf('(');
        if (open < 0) {
            checkName(e, list);
            return new SchedulerSpec(e, Collections.<String, String>emptyMap());
        }
        String name = e.substring(0, open).trim();
        checkName(name, list);
        if (!e.endsWith(")")) {
            throw new UsageException("scheduler entry '" + e + "' has text after ')'");
        }
        String inside = e.substring(open + 1, e.length() - 1).trim();
        Map<String, String> params = new LinkedHashMap<>();
        if (!inside.isEmpty()) {
            for (String kv : inside.split(",", -1)) {
                int eq = kv.indexOf('=');
                String key = eq < 0 ? "" : kv.substring(0, eq).trim();
                String value = eq < 0 ? "" : kv.substring(eq + 1).trim();
                if (key.isEmpty() || value.isEmpty()) {
                    throw new UsageException("scheduler entry '" + e + "': parameter '" + kv.trim()
                            + "' is not key=value");
                }
                if (params.put(key, value) != null) {
                    throw new UsageException("scheduler entry '" + e + "' sets parameter '" + key + "' twice");
                }
            }
        }
        return new SchedulerSpec(name, params);
    }

    private static void checkName(String name, String list) {
        if (name.isEmpty()) {
            throw new UsageException("scheduler entry without a name in list '" + list + "'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
                throw new UsageException("scheduler name '" + name + "' in list '" + list
                        + "' contains '" + c + "'");
            }
        }
    }

    public String name() {
        return name;
    }

    /** Parameters in the order given; empty when the entry has none. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** The canonical text: {@code name} or {@code name(k=v,k=v)}, no spaces. */
    public String label() {
        if (parameters.isEmpty()) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name).append('(');
        boolean first = true;
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(p.getKey()).append('=').append(p.getValue());
        }
        return sb.append(')').toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SchedulerSpec)) {
            return false;
        }
        SchedulerSpec s = (SchedulerSpec) o;
        return name.equals(s.name) && parameters.equals(s.parameters);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + parameters.hashCode();
    }

    @Override
    public String toString() {
        return label();
    }
}
