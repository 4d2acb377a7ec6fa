package io.courier.shuffle.proxy;

import io.courier.scheduler.planning.SelectAndSplit;

import java.util.Map;

/**
 * The proxy's settings (docs/configuration.md, "Courier proxy"). Immutable; built from defaults with the
 * {@code with…} methods or from string properties with {@link #fromProperties}.
 */
public final class ProxyConfig {
    public static final String HOST = "courier.proxy.host";
    /** Address the server socket binds to; unset means {@link #HOST}. The node id always uses {@link #HOST}. */
    public static final String BIND_HOST = "courier.proxy.bind.host";
    public static final String PORT = "courier.proxy.port";
    public static final String IO_THREADS = "courier.proxy.io.threads";
    public static final String STREAM_WINDOW = "courier.proxy.stream.window.bytes";
    public static final String CONNECTION_MAX_IN_FLIGHT = "courier.proxy.connection.max-in-flight.bytes";
    public static final String NODE_MAX_IN_FLIGHT = "courier.proxy.node.max-in-flight.bytes";
    public static final String SEND_BUFFER = "courier.proxy.send.buffer.bytes";
    public static final String TRANSFER_TO = "courier.proxy.transferTo.allowed";
    public static final String CONNECT_TIMEOUT = "courier.proxy.connect.timeout.ms";
    public static final String MAX_NUM = "courier.proxy.maxNum";
    public static final String MIN_SIZE = "courier.proxy.minSize.bytes";
    public static final String MAX_CONNECTIONS_PER_PEER = "courier.proxy.max-connections-per-peer";

    private final String host;
    private final String bindHost;
    private final int port;
    private final int ioThreads;
    private final int streamWindow;
    private final long connectionMaxInFlight;
    private final long nodeMaxInFlight;
    private final long sendBuffer;
    private final boolean transferTo;
    private final int connectTimeoutMillis;
    private final int maxNum;
    private final double minSize;
    private final int maxConnectionsPerPeer;

    private ProxyConfig(String host, String bindHost, int port, int ioThreads, int streamWindow, long connectionMaxInFlight,
            long nodeMaxInFlight, long sendBuffer, boolean transferTo, int connectTimeoutMillis, int maxNum,
            double minSize, int maxConnectionsPerPeer) {
        check(port >= 0 && port <= 65535, PORT, "[0, 65535]", port);
        check(ioThreads >= 1, IO_THREADS, ">= 1", ioThreads);
        check(streamWindow >= 1024, STREAM_WINDOW, ">= 1024", streamWindow);
        check(connectionMaxInFlight >= streamWindow, CONNECTION_MAX_IN_FLIGHT, ">= " + STREAM_WINDOW,
                connectionMaxInFlight);
        check(nodeMaxInFlight >= connectionMaxInFlight, NODE_MAX_IN_FLIGHT, ">= " + CONNECTION_MAX_IN_FLIGHT,
                nodeMaxInFlight);
        check(sendBuffer >= 64 * 1024, SEND_BUFFER, ">= 65536", sendBuffer);
        check(connectTimeoutMillis >= 1, CONNECT_TIMEOUT, ">= 1", connectTimeoutMillis);
        check(maxNum >= 1, MAX_NUM, ">= 1", maxNum);
        check(minSize >= 0 && !Double.isInfinite(minSize), MIN_SIZE, "finite and >= 0", minSize);
        check(maxConnectionsPerPeer >= 1, MAX_CONNECTIONS_PER_PEER, ">= 1", maxConnectionsPerPeer);
        this.host = host;
        this.bindHost = bindHost;
        this.port = port;
        this.ioThreads = ioThreads;
        this.streamWindow = streamWindow;
        this.connectionMaxInFlight = connectionMaxInFlight;
        this.nodeMaxInFlight = nodeMaxInFlight;
        this.sendBuffer = sendBuffer;
        this.transferTo = transferTo;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.maxNum = maxNum;
        this.minSize = minSize;
        this.maxConnectionsPerPeer = maxConnectionsPerPeer;
    }

    private static void check(boolean ok, String key, String rule, Object value) {
        if (!ok) {
            throw new IllegalArgumentException("setting '" + key + "' must be " + rule + ", got " + value);
        }
    }

    /** The defaults documented in docs/configuration.md. */
    public static ProxyConfig defaults() {
        return new ProxyConfig("127.0.0.1", null, 0, 2, 256 * 1024, 64L << 20, 256L << 20, 1L << 20, true, 10_000,
                SelectAndSplit.UNLIMITED, 1 << 20, 4);
    }

    /** Defaults overridden by the given {@code courier.proxy.*} properties; unknown keys are refused. */
    public static ProxyConfig fromProperties(Map<String, String> props) {
        ProxyConfig c = defaults();
        for (Map.Entry<String, String> e : props.entrySet()) {
            String v = e.getValue().trim();
            try {
                switch (e.getKey()) {
                    case HOST: c = c.withHost(v); break;
                    case BIND_HOST: c = c.withBindHost(v.isEmpty() ? null : v); break;
                    case PORT: c = c.withPort(Integer.parseInt(v)); break;
                    case IO_THREADS: c = c.withIoThreads(Integer.parseInt(v)); break;
                    case STREAM_WINDOW: c = c.withStreamWindow(Integer.parseInt(v)); break;
                    case CONNECTION_MAX_IN_FLIGHT: c = c.withConnectionMaxInFlight(Long.parseLong(v)); break;
                    case NODE_MAX_IN_FLIGHT: c = c.withNodeMaxInFlight(Long.parseLong(v)); break;
                    case SEND_BUFFER: c = c.withSendBuffer(Long.parseLong(v)); break;
                    case TRANSFER_TO: c = c.withTransferTo(Boolean.parseBoolean(v)); break;
                    case CONNECT_TIMEOUT: c = c.withConnectTimeoutMillis(Integer.parseInt(v)); break;
                    case MAX_NUM: c = c.withMaxNum(Integer.parseInt(v)); break;
                    case MIN_SIZE: c = c.withMinSize(Double.parseDouble(v)); break;
                    case MAX_CONNECTIONS_PER_PEER: c = c.withMaxConnectionsPerPeer(Integer.parseInt(v)); break;
                    default:
                        throw new IllegalArgumentException("unknown setting '" + e.getKey() + "'");
                }
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("setting '" + e.getKey() + "' is not a number: " + v, ex);
            }
        }
        return c;
    }

    public ProxyConfig withHost(String v) {
        return new ProxyConfig(v, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    /** Binds the server socket to {@code v} (e.g. 0.0.0.0) while the node id keeps {@link #host()}; null: host. */
    public ProxyConfig withBindHost(String v) {
        return new ProxyConfig(host, v, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight,
                sendBuffer, transferTo, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withPort(int v) {
        return new ProxyConfig(host, bindHost, v, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withIoThreads(int v) {
        return new ProxyConfig(host, bindHost, port, v, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withStreamWindow(int v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, v, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withConnectionMaxInFlight(long v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, v, nodeMaxInFlight, sendBuffer, transferTo,
                connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withNodeMaxInFlight(long v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, v, sendBuffer, transferTo,
                connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withSendBuffer(long v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, v,
                transferTo, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withTransferTo(boolean v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                v, connectTimeoutMillis, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withConnectTimeoutMillis(int v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, v, maxNum, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withMaxNum(int v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, v, minSize, maxConnectionsPerPeer);
    }

    public ProxyConfig withMinSize(double v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, maxNum, v, maxConnectionsPerPeer);
    }

    public ProxyConfig withMaxConnectionsPerPeer(int v) {
        return new ProxyConfig(host, bindHost, port, ioThreads, streamWindow, connectionMaxInFlight, nodeMaxInFlight, sendBuffer,
                transferTo, connectTimeoutMillis, maxNum, minSize, v);
    }

    public String host() {
        return host;
    }

    /** The address the server socket binds to: {@link #BIND_HOST} when set, else {@link #host()}. */
    public String bindHost() {
        return bindHost == null ? host : bindHost;
    }

    public int port() {
        return port;
    }

    public int ioThreads() {
        return ioThreads;
    }

    public int streamWindow() {
        return streamWindow;
    }

    public long connectionMaxInFlight() {
        return connectionMaxInFlight;
    }

    public long nodeMaxInFlight() {
        return nodeMaxInFlight;
    }

    public long sendBuffer() {
        return sendBuffer;
    }

    public boolean transferTo() {
        return transferTo;
    }

    public int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    public int maxNum() {
        return maxNum;
    }

    public double minSize() {
        return minSize;
    }

    public int maxConnectionsPerPeer() {
        return maxConnectionsPerPeer;
    }
}
