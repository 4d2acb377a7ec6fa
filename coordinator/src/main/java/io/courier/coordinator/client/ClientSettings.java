package io.courier.coordinator.client;

/**
 * Where the coordinator is and how the client behaves. Immutable; build with {@link #builder(String, int)}.
 * Defaults: report every 10 ms, coordinator considered lost after 2 s without an answer, registration retried
 * every 500 ms, discovery lookups time out after 2 s, local Artery on the coordinator-facing interface with
 * any free port, 256 KiB frames.
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
    }

    public static Builder builder(String coordinatorHost, int coordinatorPort) {
        return new Builder(coordinatorHost, coordinatorPort);
    }

    /** The coordinator's entry actor: {@code pekko://courier-coordinator@host:port/user}. */
    public String coordinatorPath() {
        return "pekko://courier-coordinator@" + coordinatorHost + ":" + coordinatorPort + "/user";
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
            return new ClientSettings(this);
        }
    }
}
