package io.courier.bench.netemu;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Courier settings an experiment overrides for one benchmark run: every {@code -Dcourier.*} system property of
 * the agent JVM (set through {@code AGENT_JAVA_OPTS}), applied both to the node's shuffle service configuration
 * and to the reducers' job configuration, so that proxy keys ({@code courier.proxy.*}) and reduce-side keys
 * ({@code courier.reduce.*}) reach whichever side reads them. Immutable snapshot taken at construction.
 */
final class CourierOverrides {
    private final Map<String, String> settings;

    private CourierOverrides(Map<String, String> settings) {
        this.settings = settings;
    }

    /** The {@code courier.*} entries of {@code props} (normally the system properties). */
    static CourierOverrides from(Properties props) {
        Map<String, String> m = new TreeMap<>();
        for (String k : props.stringPropertyNames()) {
            if (k.startsWith("courier.")) {
                m.put(k, props.getProperty(k));
            }
        }
        return new CourierOverrides(m);
    }

    /** Sets every override in {@code conf}; returns it. */
    <C extends Configuration> C applyTo(C conf) {
        settings.forEach(conf::set);
        return conf;
    }

    Map<String, String> settings() {
        return settings;
    }
}
