package io.courier.shuffle.proxy;

import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.server.SendSettings;

import java.util.Map;

/**
 * The proxy's settings (docs/configuration.md, "Courier proxy"). Immutable; built from defaults with the
 * {@code with…} methods or from string properties with {@link #fromProperties}.
 */
public final class ProxyConfig {
    public static final String HOST = "courier.proxy.host";
    public static final String PORT = "courier.proxy.port";
    public static final String IO_THREADS = "courier.proxy.io.threads";
    public static final String STREAM_WINDOW = "courier.proxy.stream.window.bytes";
    public static final String CONNECTION_MAX_IN_FLIGHT = "courier.proxy.connection.max-in-flight.bytes";
    public static final String NODE_MAX_IN_FLIGHT = "courier.proxy.node.max-in-flight.bytes";
    public static final String SEND_BUFFER = "courier.proxy.send.buffer.bytes";
    /** Streams one connection (serving, or a task's relay connection) may have open at once. */
    public static final String CONNECTION_MAX_OPEN_STREAMS = "courier.proxy.connection.max-open-streams";
    /** Blocks of one send pass that may share a DATA_RUN header (1: a DATA frame per block, as protocol version 1). */
    public static final String BLOCKS_PER_RUN = "courier.proxy.send.blocks-per-run";
    /** SO_RCVBUF of the connections a proxy opens to fetch (0: the kernel's autotuning). */
    public static final String RECEIVE_SOCKET_BUFFER = "courier.proxy.receive.socket-buffer.bytes";
    public static final String PACING_BURST = "courier.proxy.pacing.burst.bytes";
    public static final String TRANSFER_TO = "courier.proxy.transferTo.allowed";
    public static final String CONNECT_TIMEOUT = "courier.proxy.connect.timeout.ms";
    public static final String MAX_NUM = "courier.proxy.maxNum";
    public static final String MIN_SIZE = "courier.proxy.minSize.bytes";
    public static final String MAX_CONNECTIONS_PER_PEER = "courier.proxy.max-connections-per-peer";
    /** Address the server socket binds to; unset means {@link #HOST}. The node id always uses {@link #HOST}. */
    public static final String BIND_HOST = "courier.proxy.bind.host";
    public static final String RELAY_ALLOW_REMOTE = "courier.proxy.relay.allow-remote";
    /** Task connections the relay serves at once; 0 = no cap (in a NodeManager: mapreduce.shuffle.max.connections). */
    public static final String RELAY_MAX_CONNECTIONS = "courier.proxy.relay.max-connections";
    /** What a task refused for {@link #RELAY_MAX_CONNECTIONS} is told to wait before it connects again. */
    public static final String RELAY_RETRY_AFTER = "courier.proxy.relay.retry-after.ms";
    /**
     * The event loops' socket transport: auto (default: epoll where it loads, else NIO), nio or epoll
     * ({@link ProxyTransport}).
     */
    public static final String TRANSPORT = "courier.proxy.transport";
    /**
     * Whether local tasks reach the relay over a Unix domain socket: auto (default: where the epoll transport
     * runs), true (refuse to start without one) or false (loopback TCP only). See {@link RelayDomainSocket}.
     */
    public static final String RELAY_DOMAIN_SOCKET = "courier.proxy.relay.domain-socket";
    /** Where the proxy creates its private socket directory; empty (default): {@code java.io.tmpdir}. */
    public static final String RELAY_DOMAIN_SOCKET_DIR = "courier.proxy.relay.domain-socket.dir";
    /**
     * Whether a task's OS user (from its domain socket's peer credentials) must be its job's: auto (default:
     * where the NodeManager runs tasks as their users), true or false. See {@code TaskUsers}.
     */
    public static final String RELAY_TASK_USER_CHECK = "courier.proxy.relay.task-user.check";
    /**
     * Whether a map output's files must be owned by the user its job's containers run as (default true; a
     * NodeManager setting, see {@code NodeManagerMapOutputLocator}).
     */
    public static final String MAP_OUTPUT_OWNER_CHECK = "courier.proxy.map-output.owner-check";

    private final String host;
    private final String bindHost;
    private final int port;
    private final int ioThreads;
    private final int streamWindow;
    private final long connectionMaxInFlight;
    private final long nodeMaxInFlight;
    private final long sendBuffer;
    private final int connectionMaxOpenStreams;
    private final int blocksPerRun;
    private final int receiveSocketBuffer;
    private final long pacingBurst;
    private final boolean transferTo;
    private final int connectTimeoutMillis;
    private final int maxNum;
    private final double minSize;
    private final int maxConnectionsPerPeer;
    private final boolean relayAllowRemote;
    private final int relayMaxConnections;
    private final int relayRetryAfterMillis;
    private final String transport;
    private final String relayDomainSocket;
    private final String relayDomainSocketDir;
    private final String relayTaskUserCheck;
    private final boolean mapOutputOwnerCheck;

    private ProxyConfig(Values v) {
        check(v.port >= 0 && v.port <= 65535, PORT, "[0, 65535]", v.port);
        check(v.ioThreads >= 1, IO_THREADS, ">= 1", v.ioThreads);
        check(v.streamWindow >= 1024, STREAM_WINDOW, ">= 1024", v.streamWindow);
        check(v.connectionMaxInFlight >= v.streamWindow, CONNECTION_MAX_IN_FLIGHT, ">= " + STREAM_WINDOW,
                v.connectionMaxInFlight);
        check(v.nodeMaxInFlight >= v.connectionMaxInFlight, NODE_MAX_IN_FLIGHT, ">= " + CONNECTION_MAX_IN_FLIGHT,
                v.nodeMaxInFlight);
        check(v.sendBuffer >= 64 * 1024, SEND_BUFFER, ">= 65536", v.sendBuffer);
        check(v.connectionMaxOpenStreams >= 1, CONNECTION_MAX_OPEN_STREAMS, ">= 1", v.connectionMaxOpenStreams);
        check(v.blocksPerRun >= 1 && v.blocksPerRun <= Wire.MAX_RUN_BLOCKS, BLOCKS_PER_RUN,
                "in [1, " + Wire.MAX_RUN_BLOCKS + "]", v.blocksPerRun);
        check(v.receiveSocketBuffer == 0 || v.receiveSocketBuffer >= 4096, RECEIVE_SOCKET_BUFFER,
                "0 (kernel default) or >= 4096", v.receiveSocketBuffer);
        check(v.pacingBurst >= 1, PACING_BURST, ">= 1", v.pacingBurst);
        check(v.connectTimeoutMillis >= 1, CONNECT_TIMEOUT, ">= 1", v.connectTimeoutMillis);
        check(v.maxNum >= 1, MAX_NUM, ">= 1", v.maxNum);
        check(v.minSize >= 0 && !Double.isInfinite(v.minSize), MIN_SIZE, "finite and >= 0", v.minSize);
        check(v.maxConnectionsPerPeer >= 1, MAX_CONNECTIONS_PER_PEER, ">= 1", v.maxConnectionsPerPeer);
        check(v.relayMaxConnections >= 0, RELAY_MAX_CONNECTIONS, ">= 0 (0: no cap)", v.relayMaxConnections);
        check(v.relayRetryAfterMillis >= 1, RELAY_RETRY_AFTER, ">= 1", v.relayRetryAfterMillis);
        check(ProxyTransport.isSetting(v.transport), TRANSPORT, "auto, nio or epoll", v.transport);
        check(isTriState(v.relayDomainSocket), RELAY_DOMAIN_SOCKET, "auto, true or false", v.relayDomainSocket);
        check(v.relayDomainSocketDir.isEmpty() || v.relayDomainSocketDir.startsWith("/"), RELAY_DOMAIN_SOCKET_DIR,
                "an absolute directory, or empty for java.io.tmpdir", v.relayDomainSocketDir);
        check(isTriState(v.relayTaskUserCheck), RELAY_TASK_USER_CHECK, "auto, true or false", v.relayTaskUserCheck);
        this.host = v.host;
        this.bindHost = v.bindHost;
        this.port = v.port;
        this.ioThreads = v.ioThreads;
        this.streamWindow = v.streamWindow;
        this.connectionMaxInFlight = v.connectionMaxInFlight;
        this.nodeMaxInFlight = v.nodeMaxInFlight;
        this.sendBuffer = v.sendBuffer;
        this.connectionMaxOpenStreams = v.connectionMaxOpenStreams;
        this.blocksPerRun = v.blocksPerRun;
        this.receiveSocketBuffer = v.receiveSocketBuffer;
        this.pacingBurst = v.pacingBurst;
        this.transferTo = v.transferTo;
        this.connectTimeoutMillis = v.connectTimeoutMillis;
        this.maxNum = v.maxNum;
        this.minSize = v.minSize;
        this.maxConnectionsPerPeer = v.maxConnectionsPerPeer;
        this.relayAllowRemote = v.relayAllowRemote;
        this.relayMaxConnections = v.relayMaxConnections;
        this.relayRetryAfterMillis = v.relayRetryAfterMillis;
        this.transport = v.transport;
        this.relayDomainSocket = v.relayDomainSocket.trim().toLowerCase(java.util.Locale.ROOT);
        this.relayDomainSocketDir = v.relayDomainSocketDir;
        this.relayTaskUserCheck = v.relayTaskUserCheck.trim().toLowerCase(java.util.Locale.ROOT);
        this.mapOutputOwnerCheck = v.mapOutputOwnerCheck;
    }

    private static boolean isTriState(String s) {
        String v = s == null ? "" : s.trim().toLowerCase(java.util.Locale.ROOT);
        return v.equals("auto") || v.equals("true") || v.equals("false");
    }

    /** The mutable scratch copy behind the {@code with…} methods; never escapes this class. */
    private static final class Values {
        String host;
        String bindHost;
        int port;
        int ioThreads;
        int streamWindow;
        long connectionMaxInFlight;
        long nodeMaxInFlight;
        long sendBuffer;
        int connectionMaxOpenStreams;
        int blocksPerRun;
        int receiveSocketBuffer;
        long pacingBurst;
        boolean transferTo;
        int connectTimeoutMillis;
        int maxNum;
        double minSize;
        int maxConnectionsPerPeer;
        boolean relayAllowRemote;
        int relayMaxConnections;
        int relayRetryAfterMillis;
        String transport;
        String relayDomainSocket;
        String relayDomainSocketDir;
        String relayTaskUserCheck;
        boolean mapOutputOwnerCheck;
    }

    private Values values() {
        Values v = new Values();
        v.host = host;
        v.bindHost = bindHost;
        v.port = port;
        v.ioThreads = ioThreads;
        v.streamWindow = streamWindow;
        v.connectionMaxInFlight = connectionMaxInFlight;
        v.nodeMaxInFlight = nodeMaxInFlight;
        v.sendBuffer = sendBuffer;
        v.connectionMaxOpenStreams = connectionMaxOpenStreams;
        v.blocksPerRun = blocksPerRun;
        v.receiveSocketBuffer = receiveSocketBuffer;
        v.pacingBurst = pacingBurst;
        v.transferTo = transferTo;
        v.connectTimeoutMillis = connectTimeoutMillis;
        v.maxNum = maxNum;
        v.minSize = minSize;
        v.maxConnectionsPerPeer = maxConnectionsPerPeer;
        v.relayAllowRemote = relayAllowRemote;
        v.relayMaxConnections = relayMaxConnections;
        v.relayRetryAfterMillis = relayRetryAfterMillis;
        v.transport = transport;
        v.relayDomainSocket = relayDomainSocket;
        v.relayDomainSocketDir = relayDomainSocketDir;
        v.relayTaskUserCheck = relayTaskUserCheck;
        v.mapOutputOwnerCheck = mapOutputOwnerCheck;
        return v;
    }

    private static void check(boolean ok, String key, String rule, Object value) {
        if (!ok) {
            throw new IllegalArgumentException("setting '" + key + "' must be " + rule + ", got " + value);
        }
    }

    /** The defaults documented in docs/configuration.md. */
    public static ProxyConfig defaults() {
        Values v = new Values();
        v.host = "127.0.0.1";
        v.ioThreads = 2;
        v.streamWindow = 256 * 1024;
        v.connectionMaxInFlight = 64L << 20;
        v.nodeMaxInFlight = 256L << 20;
        v.sendBuffer = 1L << 20;
        v.connectionMaxOpenStreams = SendSettings.DEFAULT_MAX_OPEN_STREAMS;
        v.blocksPerRun = Wire.MAX_RUN_BLOCKS;
        v.pacingBurst = (long) SendScheduler.DEFAULT_PACING_BURST_BYTES;
        v.transferTo = true;
        v.connectTimeoutMillis = 10_000;
        v.maxNum = SelectAndSplit.UNLIMITED;
        v.minSize = 1 << 20;
        v.maxConnectionsPerPeer = 4;
        v.relayMaxConnections = 0;
        v.relayRetryAfterMillis = 1000; // Hadoop's ShuffleHandler answers 429 with Retry-After: 1000
        // Epoll where it loads: it makes one system call per block fewer than NIO, which on loopback is the
        // difference between ~70 % and ~89 % of a plain transfer (docs/benchmarks.md, "Runs of blocks"); NIO
        // elsewhere, where the behaviour is the same, only slower.
        v.transport = "auto";
        v.relayDomainSocket = "auto";
        v.relayDomainSocketDir = "";
        v.relayTaskUserCheck = "auto";
        v.mapOutputOwnerCheck = true;
        return new ProxyConfig(v);
    }

    /**
     * Defaults overridden by the given {@code courier.proxy.*} properties; unknown keys are refused. The limits
     * between settings (window &le; connection budget &le; node budget) are checked on the result, so the order of
     * the properties does not matter.
     */
    public static ProxyConfig fromProperties(Map<String, String> props) {
        Values c = defaults().values();
        for (Map.Entry<String, String> e : props.entrySet()) {
            String v = e.getValue().trim();
            try {
                switch (e.getKey()) {
                    case HOST: c.host = v; break;
                    case BIND_HOST: c.bindHost = v.isEmpty() ? null : v; break;
                    case PORT: c.port = Integer.parseInt(v); break;
                    case IO_THREADS: c.ioThreads = Integer.parseInt(v); break;
                    case STREAM_WINDOW: c.streamWindow = Integer.parseInt(v); break;
                    case CONNECTION_MAX_IN_FLIGHT: c.connectionMaxInFlight = Long.parseLong(v); break;
                    case NODE_MAX_IN_FLIGHT: c.nodeMaxInFlight = Long.parseLong(v); break;
                    case SEND_BUFFER: c.sendBuffer = Long.parseLong(v); break;
                    case CONNECTION_MAX_OPEN_STREAMS: c.connectionMaxOpenStreams = Integer.parseInt(v); break;
                    case BLOCKS_PER_RUN: c.blocksPerRun = Integer.parseInt(v); break;
                    case RECEIVE_SOCKET_BUFFER: c.receiveSocketBuffer = Integer.parseInt(v); break;
                    case PACING_BURST: c.pacingBurst = Long.parseLong(v); break;
                    case TRANSFER_TO: c.transferTo = parseBoolean(TRANSFER_TO, v); break;
                    case CONNECT_TIMEOUT: c.connectTimeoutMillis = Integer.parseInt(v); break;
                    case MAX_NUM: c.maxNum = Integer.parseInt(v); break;
                    case MIN_SIZE: c.minSize = Double.parseDouble(v); break;
                    case MAX_CONNECTIONS_PER_PEER: c.maxConnectionsPerPeer = Integer.parseInt(v); break;
                    case RELAY_ALLOW_REMOTE: c.relayAllowRemote = parseBoolean(RELAY_ALLOW_REMOTE, v); break;
                    case RELAY_MAX_CONNECTIONS: c.relayMaxConnections = Integer.parseInt(v); break;
                    case RELAY_RETRY_AFTER: c.relayRetryAfterMillis = Integer.parseInt(v); break;
                    case TRANSPORT: c.transport = v; break;
                    case RELAY_DOMAIN_SOCKET: c.relayDomainSocket = v; break;
                    case RELAY_DOMAIN_SOCKET_DIR: c.relayDomainSocketDir = v; break;
                    case RELAY_TASK_USER_CHECK: c.relayTaskUserCheck = v; break;
                    case MAP_OUTPUT_OWNER_CHECK: c.mapOutputOwnerCheck = parseBoolean(MAP_OUTPUT_OWNER_CHECK, v); break;
                    default:
                        throw new IllegalArgumentException("unknown setting '" + e.getKey() + "'");
                }
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("setting '" + e.getKey() + "' is not a number: " + v, ex);
            }
        }
        return new ProxyConfig(c);
    }

    public ProxyConfig withHost(String x) {
        Values v = values();
        v.host = x;
        return new ProxyConfig(v);
    }

    /** Binds the server socket to {@code x} (e.g. 0.0.0.0) while the node id keeps {@link #host()}; null: host. */
    public ProxyConfig withBindHost(String x) {
        Values v = values();
        v.bindHost = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withPort(int x) {
        Values v = values();
        v.port = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withIoThreads(int x) {
        Values v = values();
        v.ioThreads = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withStreamWindow(int x) {
        Values v = values();
        v.streamWindow = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withConnectionMaxInFlight(long x) {
        Values v = values();
        v.connectionMaxInFlight = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withNodeMaxInFlight(long x) {
        Values v = values();
        v.nodeMaxInFlight = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withSendBuffer(long x) {
        Values v = values();
        v.sendBuffer = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withBlocksPerRun(int x) {
        Values v = values();
        v.blocksPerRun = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withReceiveSocketBuffer(int x) {
        Values v = values();
        v.receiveSocketBuffer = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withTransferTo(boolean x) {
        Values v = values();
        v.transferTo = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withConnectTimeoutMillis(int x) {
        Values v = values();
        v.connectTimeoutMillis = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withMaxNum(int x) {
        Values v = values();
        v.maxNum = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withMinSize(double x) {
        Values v = values();
        v.minSize = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withMaxConnectionsPerPeer(int x) {
        Values v = values();
        v.maxConnectionsPerPeer = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withRelayAllowRemote(boolean x) {
        Values v = values();
        v.relayAllowRemote = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withRelayMaxConnections(int x) {
        Values v = values();
        v.relayMaxConnections = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withRelayRetryAfterMillis(int x) {
        Values v = values();
        v.relayRetryAfterMillis = x;
        return new ProxyConfig(v);
    }

    /** {@code auto}, {@code nio} or {@code epoll}; resolved when the proxy starts ({@link #transport()}). */
    public ProxyConfig withTransport(String x) {
        Values v = values();
        v.transport = x;
        return new ProxyConfig(v);
    }

    private static boolean parseBoolean(String key, String v) {
        if (!"true".equalsIgnoreCase(v) && !"false".equalsIgnoreCase(v)) {
            throw new IllegalArgumentException("setting '" + key + "' must be true or false, got " + v);
        }
        return Boolean.parseBoolean(v);
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

    /** Streams one connection may have open at once (serving connections, and each task's relay connection). */
    public int connectionMaxOpenStreams() {
        return connectionMaxOpenStreams;
    }

    public ProxyConfig withConnectionMaxOpenStreams(int x) {
        Values v = values();
        v.connectionMaxOpenStreams = x;
        return new ProxyConfig(v);
    }

    /**
     * How many blocks of one send pass may share a DATA_RUN header (docs/protocol.md); 1 sends a DATA frame per
     * block. The blocks, their order and their sizes are the same either way: only the headers differ.
     */
    public int blocksPerRun() {
        return blocksPerRun;
    }

    /**
     * SO_RCVBUF of the proxy's fetching connections, 0 for the kernel's autotuning. A small buffer bounds the
     * TCP window of each sender towards this node, so N senders converging on its switch port can have at most
     * about N windows in flight there (a receiver-side incast bound, as in ICTCP), at the price of throughput on
     * paths whose bandwidth-delay product is larger than the window.
     */
    public int receiveSocketBuffer() {
        return receiveSocketBuffer;
    }

    /**
     * Bytes a connection paced at a decided rate may send at once after being idle (its token bucket's depth).
     * A paced connection also cuts its DATA blocks to this size (at least 4 KiB, at most 64 KiB), so a burst
     * below one full block is a real bound on what it puts on the wire at once.
     */
    public long pacingBurst() {
        return pacingBurst;
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

    /** Whether the proxy relays for task connections from non-local addresses (default false: local tasks only). */
    public boolean relayAllowRemote() {
        return relayAllowRemote;
    }

    /** Task connections the relay serves at once; 0: no cap. */
    public int relayMaxConnections() {
        return relayMaxConnections;
    }

    /**
     * The transport to run: for {@code auto} epoll where its native library loads, else NIO; for {@code epoll}
     * it fails with the reason when epoll does not load.
     */
    public ProxyTransport transport() {
        return ProxyTransport.parse(transport);
    }

    /** The retry-after a task refused for {@link #relayMaxConnections()} is given, in milliseconds. */
    public int relayRetryAfterMillis() {
        return relayRetryAfterMillis;
    }

    /**
     * Whether the relay listens on a domain socket once the proxy runs on {@code resolved}: for {@code auto}
     * where that transport is epoll; for {@code true} it fails with the reason when it is not.
     */
    public boolean relayDomainSocket(ProxyTransport resolved) {
        switch (relayDomainSocket) {
            case "true":
                if (resolved != ProxyTransport.EPOLL) {
                    throw new IllegalArgumentException("setting '" + RELAY_DOMAIN_SOCKET + "' is true, but the proxy "
                            + "runs the " + resolved + " transport; domain sockets need epoll (see '" + TRANSPORT
                            + "')");
                }
                return true;
            case "false":
                return false;
            default:
                return resolved == ProxyTransport.EPOLL;
        }
    }

    /** {@code auto}, {@code true} or {@code false}, as set ({@link #relayDomainSocket(ProxyTransport)} resolves it). */
    public String relayDomainSocket() {
        return relayDomainSocket;
    }

    /** The directory under which the proxy creates its private socket directory. */
    public java.nio.file.Path relayDomainSocketDir() {
        return java.nio.file.Paths.get(relayDomainSocketDir.isEmpty() ? System.getProperty("java.io.tmpdir")
                : relayDomainSocketDir);
    }

    /** {@code auto}, {@code true} or {@code false}, as set; a NodeManager resolves auto (see {@code TaskUsers}). */
    public String relayTaskUserCheck() {
        return relayTaskUserCheck;
    }

    /** Whether map outputs must be owned by the user their job's containers run as. */
    public boolean mapOutputOwnerCheck() {
        return mapOutputOwnerCheck;
    }

    public ProxyConfig withMapOutputOwnerCheck(boolean x) {
        Values v = values();
        v.mapOutputOwnerCheck = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withRelayDomainSocket(String x) {
        Values v = values();
        v.relayDomainSocket = x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withRelayDomainSocketDir(String x) {
        Values v = values();
        v.relayDomainSocketDir = x == null ? "" : x;
        return new ProxyConfig(v);
    }

    public ProxyConfig withRelayTaskUserCheck(String x) {
        Values v = values();
        v.relayTaskUserCheck = x;
        return new ProxyConfig(v);
    }
}
