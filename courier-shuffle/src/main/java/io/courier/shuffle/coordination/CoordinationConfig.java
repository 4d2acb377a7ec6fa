package io.courier.shuffle.coordination;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * How a proxy works with the coordinator, from the NodeManager's {@code courier.coordinator.*} keys (and the
 * node's {@code courier.proxy.capacity.bytes-per-second}). Without {@link #ADDRESS} there is no coordinator and
 * the proxy runs the decentralized fallback only. Immutable; {@link #fromProperties} refuses bad values naming
 * the key.
 */
public final class CoordinationConfig {
    /** {@code host:port} of the coordinator's Artery endpoint (its {@code courier.coordinator.hostname/port}). */
    public static final String ADDRESS = "courier.coordinator.address";
    /** Report (epoch) interval of the client, ms. */
    public static final String REPORT_INTERVAL = "courier.coordinator.report-interval-ms";
    /** Silence after which the client falls back, ms. */
    public static final String ACK_TIMEOUT = "courier.coordinator.ack-timeout-ms";
    /** Registration retry interval while no coordinator answers, ms. */
    public static final String REGISTER_RETRY = "courier.coordinator.register-retry-ms";
    /** Host the coordinator uses to reach this client (Artery canonical hostname); default the proxy's host. */
    public static final String CLIENT_HOST = "courier.coordinator.client.host";
    /** Artery port of the client; 0 = any free port. */
    public static final String CLIENT_PORT = "courier.coordinator.client.port";
    /** Epoch of the decentralized (Stream) fallback, ms. */
    public static final String FALLBACK_EPOCH = "courier.coordinator.fallback.epoch-ms";
    /** While following a standby, how often to ask the primary (the first address) whether it is back. */
    public static final String PRIMARY_PROBE = "courier.coordinator.primary-probe-ms";
    /** How long the client may stay in FALLBACK before it starts a fresh actor system (new connections). */
    public static final String CLIENT_RESTART = "courier.coordinator.client.restart-after-ms";
    /**
     * Report suppression's tolerance, a fraction in [0, 1]: the proxy evaluates its flows every report interval but
     * sends them only when the coordinator's extrapolation is off by more than this (docs/coordinator.md); 0 = send
     * every interval.
     */
    public static final String REPORT_TOLERANCE = "courier.coordinator.report-tolerance";
    /** Under report suppression, the longest silence between two reports, ms. */
    public static final String REPORT_HEARTBEAT = "courier.coordinator.report-heartbeat-ms";
    /** This node's port capacity (both directions), bytes/s; 0 = unknown (the coordinator's default applies). */
    public static final String CAPACITY = "courier.proxy.capacity.bytes-per-second";

    /** Every key {@link #fromProperties} reads. */
    public static final List<String> KEYS = Collections.unmodifiableList(Arrays.asList(ADDRESS, CLIENT_HOST,
            CLIENT_PORT, CLIENT_RESTART, PRIMARY_PROBE, REPORT_INTERVAL, REPORT_TOLERANCE, REPORT_HEARTBEAT, ACK_TIMEOUT,
            REGISTER_RETRY, FALLBACK_EPOCH, CAPACITY));

    private final String coordinatorHost;
    private final int coordinatorPort;
    private final long reportIntervalMillis;
    private final long ackTimeoutMillis;
    private final long registerRetryMillis;
    private final String clientHost;
    private final int clientPort;
    private final long fallbackEpochMillis;
    private final long capacityBytesPerSecond;
    private final List<Endpoint> standbys;
    private final long primaryProbeMillis;
    private final long clientRestartMillis;
    private final double reportTolerance;
    private final long reportHeartbeatMillis;

    /** A coordinator's Artery endpoint. */
    public static final class Endpoint {
        private final String host;
        private final int port;

        Endpoint(String host, int port) {
            this.host = host;
            this.port = port;
        }

        public String host() {
            return host;
        }

        public int port() {
            return port;
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    private CoordinationConfig(String coordinatorHost, int coordinatorPort, long reportIntervalMillis,
            long ackTimeoutMillis, long registerRetryMillis, String clientHost, int clientPort,
            long fallbackEpochMillis, long capacityBytesPerSecond, List<Endpoint> standbys, long primaryProbeMillis,
            long clientRestartMillis, double reportTolerance, long reportHeartbeatMillis) {
        this.coordinatorHost = coordinatorHost;
        this.coordinatorPort = coordinatorPort;
        this.reportIntervalMillis = reportIntervalMillis;
        this.ackTimeoutMillis = ackTimeoutMillis;
        this.registerRetryMillis = registerRetryMillis;
        this.clientHost = clientHost;
        this.clientPort = clientPort;
        this.fallbackEpochMillis = fallbackEpochMillis;
        this.capacityBytesPerSecond = capacityBytesPerSecond;
        this.standbys = Collections.unmodifiableList(new ArrayList<Endpoint>(standbys));
        this.primaryProbeMillis = primaryProbeMillis;
        this.clientRestartMillis = clientRestartMillis;
        this.reportTolerance = reportTolerance;
        this.reportHeartbeatMillis = reportHeartbeatMillis;
    }

    /** No coordinator: decentralized fallback only, default epoch. */
    public static CoordinationConfig none() {
        return new CoordinationConfig(null, 0, 10, 2_000, 500, null, 0, 10, 0, Collections.<Endpoint>emptyList(),
                5_000, 10_000, 0.01, 100);
    }

    /**
     * Reads the keys above from {@code props} (any other key is refused); absent keys take the defaults: report
     * every 10 ms, fall back after 2 000 ms of silence, retry registration every 500 ms, client on the proxy's
     * host and any port, fallback epoch 10 ms (Stream's Δ), capacity 0 (unknown), probe the primary every 5 000 ms
     * while following a standby, reports suppressed within a tolerance of 0.01 with a 100 ms heartbeat. {@link #ADDRESS} is a comma-separated list: the primary, then standbys.
     *
     * @throws IllegalArgumentException naming the key, for an unknown key or a bad value
     */
    public static CoordinationConfig fromProperties(Map<String, String> props) {
        for (String key : props.keySet()) {
            // A misspelt key would otherwise leave the node without its coordinator, or with a default, silently.
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown setting '" + key + "' (known: " + String.join(", ", KEYS)
                        + ")");
            }
        }
        String address = trimmed(props.get(ADDRESS));
        String host = null;
        int port = 0;
        List<Endpoint> standbys = new ArrayList<Endpoint>();
        if (address != null) {
            for (String entry : address.split(",")) {
                Endpoint e = endpoint(entry.trim());
                if (host == null) {
                    host = e.host();
                    port = e.port();
                } else {
                    standbys.add(e);
                }
            }
        }
        long report = number(REPORT_INTERVAL, props.get(REPORT_INTERVAL), 10, 1, Long.MAX_VALUE);
        long ack = number(ACK_TIMEOUT, props.get(ACK_TIMEOUT), 2_000, 1, Long.MAX_VALUE);
        if (ack <= report) {
            throw new IllegalArgumentException("'" + ACK_TIMEOUT + "' (" + ack + " ms) must be longer than '"
                    + REPORT_INTERVAL + "' (" + report + " ms)");
        }
        long retry = number(REGISTER_RETRY, props.get(REGISTER_RETRY), 500, 1, Long.MAX_VALUE);
        String clientHost = trimmed(props.get(CLIENT_HOST));
        int clientPort = (int) number(CLIENT_PORT, props.get(CLIENT_PORT), 0, 0, 65535);
        long epoch = number(FALLBACK_EPOCH, props.get(FALLBACK_EPOCH), 10, 1, 60_000);
        long capacity = number(CAPACITY, props.get(CAPACITY), 0, 0, Long.MAX_VALUE);
        long probe = number(PRIMARY_PROBE, props.get(PRIMARY_PROBE), 5_000, 1, Long.MAX_VALUE);
        long restart = number(CLIENT_RESTART, props.get(CLIENT_RESTART), 10_000, 1_000, Long.MAX_VALUE);
        double tolerance = fraction(REPORT_TOLERANCE, props.get(REPORT_TOLERANCE), 0.01);
        long heartbeat = number(REPORT_HEARTBEAT, props.get(REPORT_HEARTBEAT), 100, 1, Long.MAX_VALUE);
        if (tolerance > 0 && ack <= Math.max(heartbeat, report)) {
            throw new IllegalArgumentException("'" + ACK_TIMEOUT + "' (" + ack + " ms) must be longer than '"
                    + REPORT_HEARTBEAT + "' (" + heartbeat + " ms) while '" + REPORT_TOLERANCE + "' is above 0");
        }
        return new CoordinationConfig(host, port, report, ack, retry, clientHost, clientPort, epoch, capacity,
                standbys, probe, restart, tolerance, heartbeat);
    }

    /** One {@code host:port} of {@link #ADDRESS} ({@code [v6]:port} allowed). */
    private static Endpoint endpoint(String entry) {
        int colon = entry.lastIndexOf(':');
        if (colon <= 0 || colon == entry.length() - 1) {
            throw new IllegalArgumentException("'" + ADDRESS + "' must be host:port of the coordinator's Artery"
                    + " endpoint (then of its standbys, comma-separated), got '" + entry + "'");
        }
        String host = entry.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Endpoint(host, (int) number(ADDRESS + " (port)", entry.substring(colon + 1), 1, 65535));
    }

    private static String trimmed(String v) {
        if (v == null) {
            return null;
        }
        String t = v.trim();
        return t.isEmpty() ? null : t;
    }

    private static double fraction(String key, String value, double dflt) {
        String t = trimmed(value);
        if (t == null) {
            return dflt;
        }
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + key + "' must be a number in [0, 1], got '" + value + "'", e);
        }
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException("'" + key + "' must be in [0, 1], got " + v);
        }
        return v;
    }

    private static long number(String key, String value, long dflt, long min, long max) {
        String t = trimmed(value);
        return t == null ? dflt : number(key, t, min, max);
    }

    private static long number(String key, String value, long min, long max) {
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + key + "' must be an integer, got '" + value + "'", e);
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException("'" + key + "' must be in [" + min + ", " + max + "], got " + v);
        }
        return v;
    }

    /** A copy with other client timings (tests use short ones). */
    public CoordinationConfig withTimings(long reportMillis, long ackTimeoutMillis, long registerRetryMillis) {
        return new CoordinationConfig(coordinatorHost, coordinatorPort, reportMillis, ackTimeoutMillis,
                registerRetryMillis, clientHost, clientPort, fallbackEpochMillis, capacityBytesPerSecond, standbys,
                primaryProbeMillis, clientRestartMillis, reportTolerance, reportHeartbeatMillis);
    }

    /** Report suppression's tolerance ({@link #REPORT_TOLERANCE}); 0 = every report interval. */
    public double reportTolerance() {
        return reportTolerance;
    }

    /** Under suppression, the longest silence between two reports ({@link #REPORT_HEARTBEAT}). */
    public long reportHeartbeatMillis() {
        return reportHeartbeatMillis;
    }

    /** How long the client may stay in FALLBACK before it starts a fresh actor system. */
    public long clientRestartMillis() {
        return clientRestartMillis;
    }

    /** Standby coordinators, in the order the client tries them after the primary. */
    public List<Endpoint> standbys() {
        return standbys;
    }

    public long primaryProbeMillis() {
        return primaryProbeMillis;
    }

    /** Whether a coordinator is configured. */
    public boolean coordinated() {
        return coordinatorHost != null;
    }

    public String coordinatorHost() {
        return coordinatorHost;
    }

    public int coordinatorPort() {
        return coordinatorPort;
    }

    public long reportIntervalMillis() {
        return reportIntervalMillis;
    }

    public long ackTimeoutMillis() {
        return ackTimeoutMillis;
    }

    public long registerRetryMillis() {
        return registerRetryMillis;
    }

    /** The client's Artery host, or null for "the proxy's advertised host". */
    public String clientHost() {
        return clientHost;
    }

    public int clientPort() {
        return clientPort;
    }

    public long fallbackEpochMillis() {
        return fallbackEpochMillis;
    }

    public long capacityBytesPerSecond() {
        return capacityBytesPerSecond;
    }

    @Override
    public String toString() {
        return "CoordinationConfig(" + (coordinated() ? coordinatorHost + ":" + coordinatorPort : "no coordinator")
                + ", report " + reportIntervalMillis + " ms, ack timeout " + ackTimeoutMillis + " ms, fallback epoch "
                + fallbackEpochMillis + " ms, capacity " + capacityBytesPerSecond + " B/s)";
    }
}
