package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.client.ClientCounters;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.client.TaskConnection;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.util.concurrent.TimeUnit;

/**
 * A reduce task's handle on its node's Courier proxy: every fetch goes over ONE loopback connection to that
 * proxy, which relays it over the node's merged proxy-to-proxy connections (docs/protocol.md, "Relay").
 * Streams are ordinary {@link SegmentStream}s with end-to-end credit: a stream that is not read stops at its
 * source after one window. Owns one daemon Netty event loop thread and one connection, both stopped by
 * {@link #close()}. Thread-safe: any number of fetcher threads may call {@link #fetch} concurrently. If the
 * connection to the local proxy is lost, its open streams fail with a retryable {@code PEER_LOST} naming the
 * local proxy, and the next fetch reconnects.
 */
public final class LocalProxyClient implements Closeable {
    private final String localProxy;
    private final RelayClientConfig config;
    private final String self;
    private final EventLoopGroup loop;
    private final ClientCounters counters = new ClientCounters();
    private TaskConnection connection;
    private boolean closed;

    private LocalProxyClient(String localProxy, RelayClientConfig config) {
        this.localProxy = localProxy;
        this.config = config;
        this.self = "task-" + ManagementFactory.getRuntimeMXBean().getName();
        this.loop = new NioEventLoopGroup(1, new DefaultThreadFactory("courier-relay-client", true));
    }

    /**
     * Connects to the proxy at {@code host:port} (the task's own node). Fails with an IOException naming the
     * proxy if it cannot be reached within the connect timeout.
     */
    public static LocalProxyClient connect(String host, int port, RelayClientConfig cfg) throws IOException {
        if (cfg == null) {
            throw new IllegalArgumentException("relay client config is required");
        }
        String id = new NodeAddress(host, port).id();
        LocalProxyClient c = new LocalProxyClient(id, cfg);
        try {
            ChannelFuture f = c.current().connectFuture();
            if (!f.awaitUninterruptibly(cfg.connectTimeoutMillis() + 1000L, TimeUnit.MILLISECONDS) || !f.isSuccess()) {
                ConnectException e = new ConnectException("cannot connect to the local Courier proxy " + id + ": "
                        + (f.cause() == null ? "timed out" : f.cause().toString()));
                if (f.cause() != null) {
                    e.initCause(f.cause());
                }
                throw e;
            }
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Fetches reduce {@code partition} of {@code mapAttempt}'s output of {@code job} from the proxy
     * {@code sourceProxy} ({@code host:proxyPort} of the node holding it; may be this node's own proxy) through
     * the local proxy. The request and reply are authenticated with {@code jobSecret} end to end.
     *
     * @throws IllegalStateException if this client is closed
     */
    public SegmentStream fetch(String sourceProxy, String job, String mapAttempt, int partition, byte[] jobSecret) {
        NodeAddress.parse(sourceProxy);
        return current().fetch(sourceProxy, job, mapAttempt, partition, jobSecret);
    }

    /** What this client fetched so far. */
    public RelayCounters counters() {
        return new RelayCounters(counters.bytesReceived(), counters.segmentsCompleted(), counters.streamsFailed(),
                counters.servingConnections());
    }

    /** The local proxy, {@code host:port}. */
    public String localProxy() {
        return localProxy;
    }

    public RelayClientConfig config() {
        return config;
    }

    /** The open connection, or a new one if the last was lost. */
    private synchronized TaskConnection current() {
        if (closed) {
            throw new IllegalStateException("relay client for " + localProxy + " is closed");
        }
        if (connection == null || connection.isLost()) {
            connection = TaskConnection.open(self, localProxy, loop.next(), config.streamWindow(),
                    config.maxInFlight(), config.connectTimeoutMillis(), config.readTimeoutMillis(), counters, () -> { });
        }
        return connection;
    }

    /** Closes the connection (open streams fail) and stops the event loop thread. Idempotent. */
    @Override
    public void close() {
        TaskConnection c;
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
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
