package io.courier.coordinator.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where the coordinator is and how the client behaves. Immutable; build with {@link #builder(String, int)}.
 * Defaults: report every 10 ms, coordinator considered lost after 2 s without an answer, registration retried
 * every 500 ms, discovery lookups time out after 2 s, local Artery on the coordinator-facing interface with
 * any free port, 256 KiB frames, no standby, a fresh actor system after 10 s in FALLBACK, reports suppressed
 * within a 1 % tolerance with a 100 ms heartbeat ({@link ReportGate}). With standbys ({@link Builder#standby}), a client that loses its
 * coordinator tries the next one in turn, and while it follows a standby it asks the primary every
 * {@link #primaryProbeMillis()} whether it is back (docs/coordinator.md, "High availability").
 */
public final class ClientSettings {
    private final String coordinatorHost;
    private final int coordinatorPort;
    private final String localHost;
    private final int localPort;
    private final long reportIntervalMillis;
    private final long ackTimeoutMillis;
    private final long registerRetryMillis;
    private final long lookupTimeoutMillis;
    private final int maxFrameBytes;
    private final List<String> standbys;
    private final long primaryProbeMillis;
    private final long systemRestartMillis;
    private final double reportTolerance;
    private final long reportHeartbeatMillis;

    private ClientSettings(Builder b) {
        this.coordinatorHost = b.coordinatorHost;
        this.coordinatorPort = b.coordinatorPort;
        this.localHost = b.localHost;
        this.localPort = b.localPort;
        this.reportIntervalMillis = b.reportIntervalMillis;
        this.ackTimeoutMillis = b.ackTimeoutMillis;
        this.registerRetryMillis = b.registerRetryMillis;
        this.lookupTimeoutMillis = b.lookupTimeoutMillis;
        this.maxFrameBytes = b.maxFrameBytes;
        this.standbys = Collections.unmodifiableList(new ArrayList<String>(b.standbys));
        this.primaryProbeMillis = b.primaryProbeMillis;
        this.systemRestartMillis = b.systemRestartMillis;
        this.reportTolerance = b.reportTolerance;
        this.reportHeartbeatMillis = Math.max(b.reportHeartbeatMillis, b.reportIntervalMillis);
    }

    /**
     * Report suppression ({@link ReportGate}): the client evaluates its flows every report interval but sends them
     * only when the coordinator's extrapolation of the last report is off by more than this fraction (or a flow
     * appeared, finished or changed size), else every {@link #reportHeartbeatMillis()}. 0 = send every interval.
     */
    public double reportTolerance() {
        return reportTolerance;
    }

    /** The longest interval between two reports while registered (at least the report interval). */
    public long reportHeartbeatMillis() {
        return reportHeartbeatMillis;
    }

    /**
     * How long a client may stay in FALLBACK before it replaces its actor system (and so its connections) to
     * reach a coordinator that came back; see {@link CoordinatorClient}.
     */
    public long systemRestartMillis() {
        return systemRestartMillis;
    }

    public static Builder builder(String coordinatorHost, int coordinatorPort) {
        return new Builder(coordinatorHost, coordinatorPort);
    }

    /** The primary coordinator's entry actor: {@code pekko://courier-coordinator@host:port/user}. */
    public String coordinatorPath() {
        return pathOf(coordinatorHost + ":" + coordinatorPort);
    }

    /** Entry actors of the primary, then of each standby in the configured order. */
    public List<String> coordinatorPaths() {
        List<String> paths = new ArrayList<String>();
        paths.add(coordinatorPath());
        for (String s : standbys) {
            paths.add(pathOf(s));
        }
        return paths;
    }

    private static String pathOf(String hostPort) {
        return "pekko://courier-coordinator@" + hostPort + "/user";
    }

    /** How often a client following a standby asks the primary whether it is back. */
    public long primaryProbeMillis() {
        return primaryProbeMillis;
    }

    public String coordinatorHost() {
        return coordinatorHost;
    }

    public int coordinatorPort() {
        return coordinatorPort;
    }

    public String localHost() {
        return localHost;
    }

    public int localPort() {
        return localPort;
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

    public long lookupTimeoutMillis() {
        return lookupTimeoutMillis;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Builder; every setter checks its value. */
    public static final class Builder {
        private final String coordinatorHost;
        private final int coordinatorPort;
        private String localHost = "127.0.0.1";
        private int localPort;
        private long reportIntervalMillis = 10;
        private long ackTimeoutMillis = 2_000;
        private long registerRetryMillis = 500;
        private long lookupTimeoutMillis = 2_000;
        private int maxFrameBytes = 256 * 1024;
        private final List<String> standbys = new ArrayList<String>();
        private long primaryProbeMillis = 5_000;
        private long systemRestartMillis = 10_000;
        private double reportTolerance = 0.01;
        private long reportHeartbeatMillis = 100;

        private Builder(String coordinatorHost, int coordinatorPort) {
            if (coordinatorHost == null || coordinatorHost.isEmpty()) {
                throw new IllegalArgumentException("coordinator host must be set");
            }
            if (coordinatorPort < 1 || coordinatorPort > 65535) {
                throw new IllegalArgumentException("coordinator port must be a TCP port, got " + coordinatorPort);
            }
            this.coordinatorHost = coordinatorHost;
            this.coordinatorPort = coordinatorPort;
        }

        /** The address the coordinator uses to reach this client (Artery canonical hostname) and its port (0 = any). */
        public Builder local(String host, int port) {
            if (host == null || host.isEmpty() || port < 0 || port > 65535) {
                throw new IllegalArgumentException("local address must be a host and a port in [0, 65535], got "
                        + host + ":" + port);
            }
            this.localHost = host;
            this.localPort = port;
            return this;
        }

        public Builder reportIntervalMillis(long v) {
            this.reportIntervalMillis = positive("report interval", v);
            return this;
        }

        public Builder ackTimeoutMillis(long v) {
            this.ackTimeoutMillis = positive("ack timeout", v);
            return this;
        }

        public Builder registerRetryMillis(long v) {
            this.registerRetryMillis = positive("register retry interval", v);
            return this;
        }

        public Builder lookupTimeoutMillis(long v) {
            this.lookupTimeoutMillis = positive("lookup timeout", v);
            return this;
        }

        /** Adds a standby coordinator at {@code host:port}, tried after the primary and earlier standbys. */
        public Builder standby(String host, int port) {
            if (host == null || host.isEmpty() || port < 1 || port > 65535) {
                throw new IllegalArgumentException("standby coordinator must be a host and a TCP port, got " + host
                        + ":" + port);
            }
            this.standbys.add(host + ":" + port);
            return this;
        }

        public Builder primaryProbeMillis(long v) {
            this.primaryProbeMillis = positive("primary probe interval", v);
            return this;
        }

        public Builder systemRestartMillis(long v) {
            this.systemRestartMillis = positive("system restart interval", v);
            return this;
        }

        /** Report suppression's tolerance, a fraction in [0, 1]; 0 turns suppression off. Default 0.01. */
        public Builder reportTolerance(double v) {
            if (!(v >= 0 && v <= 1)) {
                throw new IllegalArgumentException("report tolerance must be a fraction in [0, 1], got " + v);
            }
            this.reportTolerance = v;
            return this;
        }

        /** The longest silence between two reports under suppression (raised to the report interval). Default 100. */
        public Builder reportHeartbeatMillis(long v) {
            this.reportHeartbeatMillis = positive("report heartbeat", v);
            return this;
        }

        public Builder maxFrameBytes(int v) {
            if (v < 1024) {
                throw new IllegalArgumentException("max frame bytes must be >= 1024, got " + v);
            }
            this.maxFrameBytes = v;
            return this;
        }

        private static long positive(String what, long v) {
            if (v <= 0) {
                throw new IllegalArgumentException(what + " must be > 0 ms, got " + v);
            }
            return v;
        }

        public ClientSettings build() {
            if (ackTimeoutMillis <= reportIntervalMillis) {
                throw new IllegalArgumentException("ack timeout (" + ackTimeoutMillis
                        + " ms) must be longer than the report interval (" + reportIntervalMillis + " ms)");
            }
            long heartbeat = reportTolerance == 0 ? reportIntervalMillis
                    : Math.max(reportHeartbeatMillis, reportIntervalMillis);
            if (ackTimeoutMillis <= heartbeat) {
                throw new IllegalArgumentException("ack timeout (" + ackTimeoutMillis
                        + " ms) must be longer than the report heartbeat (" + heartbeat + " ms): the coordinator"
                        + " answers reports, so a client that reports less often than it expects answers falls back");
            }
            return new ClientSettings(this);
        }
    }
}
