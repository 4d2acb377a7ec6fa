package io.courier.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The coordinator's settings, read from {@code courier.coordinator} (defaults in this module's
 * {@code reference.conf}, documented in docs/configuration.md). Immutable; invalid values fail at start with
 * the key's name.
 */
public final class CoordinatorSettings {
    private final String hostname;
    private final int port;
    private final String httpHost;
    private final int httpPort;
    private final String scheduler;
    private final Map<String, String> schedulerParameters;
    private final long epochMillis;
    private final long defaultUpBytesPerSecond;
    private final long defaultDownBytesPerSecond;
    private final long nodeExpiryMillis;
    private final int maxFrameBytes;
    private final Map<String, Double> priorityWeights;

    /** The settings under {@code courier.coordinator} besides the open maps below. */
    static final List<String> KEYS = Arrays.asList("hostname", "port", "http.host", "http.port",
            "scheduler.name", "epoch", "default-capacity.up", "default-capacity.down", "node-expiry",
            "max-frame-bytes");
    /** Maps whose entries are names of their own: scheduler parameters and priority names. */
    private static final String[] OPEN_MAPS = {"scheduler.parameters.", "priority-weights."};

    private CoordinatorSettings(Config c) {
        for (Map.Entry<String, ConfigValue> e : c.entrySet()) {
            // A misspelt key would otherwise be ignored and its setting left at the default without a word.
            if (!known(e.getKey())) {
                throw new ConfigException.BadPath("courier.coordinator." + e.getKey(), "unknown setting (known: "
                        + String.join(", ", KEYS) + ", scheduler.parameters.<name>, priority-weights.<priority>)");
            }
        }
        this.hostname = c.getString("hostname");
        this.port = port(c, "port", true);
        this.httpHost = c.getString("http.host");
        this.httpPort = port(c, "http.port", true);
        this.scheduler = c.getString("scheduler.name").trim();
        Map<String, String> params = new LinkedHashMap<String, String>();
        for (Map.Entry<String, ConfigValue> e : c.getConfig("scheduler.parameters").entrySet()) {
            params.put(e.getKey(), String.valueOf(e.getValue().unwrapped()));
        }
        this.schedulerParameters = Collections.unmodifiableMap(params);
        this.epochMillis = positive(c, "epoch", c.getDuration("epoch").toMillis());
        this.defaultUpBytesPerSecond = positive(c, "default-capacity.up", c.getBytes("default-capacity.up"));
        this.defaultDownBytesPerSecond = positive(c, "default-capacity.down", c.getBytes("default-capacity.down"));
        this.nodeExpiryMillis = positive(c, "node-expiry", c.getDuration("node-expiry").toMillis());
        if (nodeExpiryMillis < 4 * epochMillis) {
            throw new ConfigException.BadValue("courier.coordinator.node-expiry", "must be at least 4 epochs ("
                    + 4 * epochMillis + " ms), got " + nodeExpiryMillis + " ms");
        }
        long frame = c.getBytes("max-frame-bytes");
        if (frame < 1024 || frame > 64L * 1024 * 1024) {
            throw new ConfigException.BadValue("courier.coordinator.max-frame-bytes",
                    "must be between 1 KiB and 64 MiB, got " + frame);
        }
        this.maxFrameBytes = (int) frame;
        Map<String, Double> weights = new LinkedHashMap<String, Double>();
        for (Map.Entry<String, ConfigValue> e : c.getConfig("priority-weights").entrySet()) {
            double w = c.getConfig("priority-weights").getDouble(e.getKey());
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new ConfigException.BadValue("courier.coordinator.priority-weights." + e.getKey(),
                        "must be a finite number > 0, got " + w);
            }
            weights.put(e.getKey(), w);
        }
        this.priorityWeights = Collections.unmodifiableMap(weights);
    }

    private static boolean known(String key) {
        if (KEYS.contains(key)) {
            return true;
        }
        for (String prefix : OPEN_MAPS) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Reads {@code courier.coordinator} from a full configuration. */
    public static CoordinatorSettings from(Config root) {
        return new CoordinatorSettings(root.getConfig("courier.coordinator"));
    }

    private static int port(Config c, String key, boolean zeroAllowed) {
        int p = c.getInt(key);
        if (p < (zeroAllowed ? 0 : 1) || p > 65535) {
            throw new ConfigException.BadValue("courier.coordinator." + key, "must be a TCP port, got " + p);
        }
        return p;
    }

    private static long positive(Config c, String key, long v) {
        if (v <= 0) {
            throw new ConfigException.BadValue("courier.coordinator." + key, "must be > 0, got " + v);
        }
        return v;
    }

    public String hostname() {
        return hostname;
    }

    public int port() {
        return port;
    }

    public String httpHost() {
        return httpHost;
    }

    /** 0 = any free port; -1 is not allowed (the HTTP server is always on in the daemon). */
    public int httpPort() {
        return httpPort;
    }

    public String scheduler() {
        return scheduler;
    }

    public Map<String, String> schedulerParameters() {
        return schedulerParameters;
    }

    public long epochMillis() {
        return epochMillis;
    }

    public long defaultUpBytesPerSecond() {
        return defaultUpBytesPerSecond;
    }

    public long defaultDownBytesPerSecond() {
        return defaultDownBytesPerSecond;
    }

    public long nodeExpiryMillis() {
        return nodeExpiryMillis;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Weight of a coflow by job priority name (VERY_HIGH..VERY_LOW, DEFAULT, ...). */
    public Map<String, Double> priorityWeights() {
        return priorityWeights;
    }
}
