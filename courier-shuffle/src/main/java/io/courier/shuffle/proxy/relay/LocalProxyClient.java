package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.Closeable;
import java.io.IOException;

/**
 * A reduce task's handle on its node's Courier proxy: every fetch goes over ONE connection to that proxy (its
 * relay's Unix domain socket where the node has one, else loopback TCP), which relays it over the node's merged
 * proxy-to-proxy connections (docs/protocol.md, "Relay"). Streams are {@link RelayStream}s with end-to-end credit:
 * a stream that is not read stops at its source after one window. The connection runs on blocking JDK sockets, not
 * Netty, so that a cold task JVM is fetching within milliseconds (see {@link TaskSocketConnection}). Owns that
 * connection and its reader thread, both stopped by {@link #close()}. Thread-safe: any number of fetcher threads
 * may call {@link #fetch} concurrently. If the connection to the local proxy is lost, its open streams fail with a
 * retryable {@code PEER_LOST} naming the local proxy, and the next fetch reconnects; if the proxy refused it for
 * overload ({@code OVERLOADED}, at {@code courier.proxy.relay.max-connections}), they fail with that refusal and
 * its retry-after, and fetches fail the same way, without connecting, until the retry-after has passed.
 */
public final class LocalProxyClient implements Closeable {
    private final String localProxy;
    private final RelayClientConfig config;
    private final String self;
    /** The relay's domain socket, or null: TCP. */
    private final String socket;
    private final RelayTally tally = new RelayTally();
    private TaskSocketConnection connection;
    private boolean closed;

    private LocalProxyClient(String localProxy, String socket, RelayClientConfig config, String self) {
        this.socket = socket;
        this.localProxy = localProxy;
        this.config = config;
        this.self = self;
    }

    /** {@link #connect(String, int, RelayClientConfig, String)} with a generated task name. */
    public static LocalProxyClient connect(String host, int port, RelayClientConfig cfg) throws IOException {
        // Not the JVM's pid@host: asking the runtime MXBean for it starts JMX, 150-300 ms in a cold JVM.
        return connect(host, port, cfg, "task-" + Long.toHexString(System.nanoTime()));
    }

    /**
     * Connects to the proxy at {@code host:port} (the task's own node) as {@code taskName} (the reduce attempt,
     * which the proxy names in its logs). Fails with an IOException naming the proxy if it cannot be reached
     * within the connect timeout.
     */
    public static LocalProxyClient connect(String host, int port, RelayClientConfig cfg, String taskName)
            throws IOException {
        return connect(host, port, null, cfg, taskName);
    }

    /**
     * Like {@link #connect(String, int, RelayClientConfig, String)}, over the relay's domain socket {@code socket}
     * (from the node's service metadata) where this JVM can open it (Java 16 or later), else (or when null) over
     * TCP to {@code host:port}.
     */
    public static LocalProxyClient connect(String host, int port, String socket, RelayClientConfig cfg,
            String taskName) throws IOException {
        if (cfg == null) {
            throw new IllegalArgumentException("relay client config is required");
        }
        LocalProxyClient c = new LocalProxyClient(new NodeAddress(host, port).id(), socket, cfg, taskName);
        c.connection = TaskSocketConnection.open(c.self, c.localProxy, socket, cfg, c.tally);
        return c;
    }

    /** How the current connection reaches the proxy: the relay socket's path, or {@code tcp}. */
    public synchronized String via() {
        return connection == null ? "none" : connection.via();
    }

    /**
     * Fetches reduce {@code partition} of {@code mapAttempt}'s output of {@code job} from the proxy
     * {@code sourceProxy} ({@code host:proxyPort} of the node holding it; may be this node's own proxy) through
     * the local proxy. The request and reply are authenticated with {@code jobSecret} end to end. If the local
     * proxy cannot be reached, the stream fails with a connection failure.
     *
     * @throws IllegalStateException if this client is closed
     */
    public RelayStream fetch(String sourceProxy, String job, String mapAttempt, int partition, byte[] jobSecret) {
        NodeAddress.parse(sourceProxy);
        TaskSocketConnection c;
        try {
            c = current();
        } catch (IOException e) {
            RelayStream failed = new RelayStream(null, null, tally, sourceProxy, job, mapAttempt, partition, jobSecret,
                    null, config.streamWindow(), config.readTimeoutMillis());
            failed.fail(e instanceof FetchException ? (FetchException) e
                    : FetchException.ofConnection(ErrorCode.PEER_LOST, e.getMessage()));
            return failed;
        }
        return c.fetch(sourceProxy, job, mapAttempt, partition, jobSecret);
    }

    /** What this client fetched so far. */
    public RelayCounters counters() {
        return tally.snapshot();
    }

    /** The local proxy, {@code host:port}. */
    public String localProxy() {
        return localProxy;
    }

    public RelayClientConfig config() {
        return config;
    }

    /**
     * The open connection, or a new one if the last was lost. Not while the proxy's overload refusal of the last
     * one holds: every fetcher thread reconnecting at once is exactly what the refusal asks us not to do.
     */
    private synchronized TaskSocketConnection current() throws IOException {
        if (closed) {
            throw new IllegalStateException("relay client for " + localProxy + " is closed");
        }
        if (connection == null || connection.isLost()) {
            FetchException refused = connection == null ? null : connection.pendingRefusal();
            if (refused != null) {
                throw refused;
            }
            connection = TaskSocketConnection.open(self, localProxy, socket, config, tally);
        }
        return connection;
    }

    /** Closes the connection (open streams fail) and stops its reader thread. Idempotent. */
    @Override
    public void close() {
        TaskSocketConnection c;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            c = connection;
            connection = null;
        }
        if (c != null) {
            c.close();
        }
    }
}
