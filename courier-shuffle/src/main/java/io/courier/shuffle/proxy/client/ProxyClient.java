package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyTransport;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fetching half of a proxy: one open {@link PeerConnection} per peer node, opened lazily by the first
 * fetch for that peer and shared by every later one (more only when the peer's SelectAndSplit split the
 * pair, capped by {@code courier.proxy.max-connections-per-peer}); a lost connection is replaced on the
 * next fetch.
 * Uses the event loops of its owner ({@code CourierProxy}), which starts and stops them. Thread-safe.
 */
public final class ProxyClient {
    private final String self;
    private final EventLoopGroup group;
    private final ProxyTransport transport;
    private final int window;
    private final long connectionBudget;
    private final MemoryBudget nodeBudget;
    private final int connectTimeoutMillis;
    private final ClientCounters counters = new ClientCounters();
    private final FrameEncoder encoder = new FrameEncoder();
    private final int maxConnectionsPerPeer;
    private final int receiveBufferBytes;
    private final PeerNameResolver resolver;
    private final Map<String, List<PeerConnection>> connections = new HashMap<>();
    private final Map<String, Integer> desired = new HashMap<>();
    private final Map<String, Integer> roundRobin = new HashMap<>();
    private boolean closed;
    private long connectionsOpened;
    /** The receive plan every connection admits by; replaced by {@link #applyReceivePlan}, read on event loops. */
    private volatile ReceivePlan receivePlan = ReceivePlan.NONE;

    public ProxyClient(String self, EventLoopGroup group, int window, long connectionBudget, long nodeBudget,
            int connectTimeoutMillis, int maxConnectionsPerPeer) {
        this(self, group, ProxyTransport.NIO, window, connectionBudget, nodeBudget, connectTimeoutMillis,
                maxConnectionsPerPeer, 0);
    }

    /**
     * @param transport the transport of {@code group}'s event loops (their channels must be of the same kind)
     * @param receiveBufferBytes SO_RCVBUF of the connections this client opens (set before connecting, so it
     *     bounds the TCP window every peer may have in flight towards this node); 0 leaves the kernel's autotuning
     */
    public ProxyClient(String self, EventLoopGroup group, ProxyTransport transport, int window, long connectionBudget,
            long nodeBudget, int connectTimeoutMillis, int maxConnectionsPerPeer, int receiveBufferBytes) {
        this(self, group, transport, window, connectionBudget, nodeBudget, connectTimeoutMillis, maxConnectionsPerPeer,
                receiveBufferBytes, new PeerNameResolver());
    }

    /** @param resolver resolves peers' host names off the event loops; this client closes it */
    ProxyClient(String self, EventLoopGroup group, ProxyTransport transport, int window, long connectionBudget,
            long nodeBudget, int connectTimeoutMillis, int maxConnectionsPerPeer, int receiveBufferBytes,
            PeerNameResolver resolver) {
        this.resolver = resolver;
        if (receiveBufferBytes < 0) {
            throw new IllegalArgumentException("receive buffer must be >= 0 (0: kernel default), got "
                    + receiveBufferBytes);
        }
        if (window <= 0 || window > connectionBudget || connectionBudget > nodeBudget) {
            throw new IllegalArgumentException("need 0 < stream window (" + window + ") <= connection budget ("
                    + connectionBudget + ") <= node budget (" + nodeBudget + ")");
        }
        this.self = self;
        this.group = group;
        this.transport = transport;
        this.window = window;
        this.connectionBudget = connectionBudget;
        this.nodeBudget = new MemoryBudget(nodeBudget);
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.maxConnectionsPerPeer = maxConnectionsPerPeer;
        this.receiveBufferBytes = receiveBufferBytes;
    }

    /** Starts fetching {@code partition} of {@code mapAttempt} of {@code job} from the proxy {@code peer}. */
    public SegmentStream fetch(String peer, String job, String mapAttempt, int partition, byte[] jobSecret) {
        SegmentStream s = new SegmentStream(peer, job, mapAttempt, partition);
        connectionTo(peer).submit(s, jobSecret);
        return s;
    }

    /**
     * Like {@link #fetch(String, String, String, int, byte[])}, but the bytes go to {@code consumer} on the
     * connection's event loop, with no thread hand-off.
     */
    public FetchHandle fetch(String peer, String job, String mapAttempt, int partition, byte[] jobSecret,
            SegmentConsumer consumer) {
        CallbackStream s = new CallbackStream(peer, job, mapAttempt, partition, consumer);
        connectionTo(peer).submit(s, jobSecret);
        return s;
    }

    /**
     * Relays a task's fetch: opens a stream to the proxy {@code source} on this node's shared connection with
     * the task's own request MAC and {@code initialCredit} (the task's window, capped by the connection
     * budget), and hands header
     * (with its reply MAC, unverified), data, end or failure to {@code sink} on the connection's event loop.
     * Credit is given only through {@link RelayedFetch#credit}. A source that cannot be connected fails the
     * stream with {@link io.courier.shuffle.proxy.protocol.ErrorCode#PEER_UNREACHABLE}.
     *
     * @throws IllegalArgumentException if {@code source} is not {@code host:port}
     * @throws IllegalStateException if this client is closed
     */
    public RelayedFetch relay(String source, String job, String mapAttempt, int partition, byte[] requestMac,
            int initialCredit, RelaySink sink) {
        RelayedFetch s = new RelayedFetch(source, job, mapAttempt, partition, initialCredit, sink);
        connectionTo(source).submitPreauthenticated(s, requestMac);
        return s;
    }

    /**
     * Installs the node's receive plan (any thread): fetches waiting for buffer are admitted by it from now on
     * (strict rank, then buffer in proportion to weight); streams already admitted keep their windows.
     */
    public void applyReceivePlan(ReceivePlan plan) {
        if (plan == null) {
            throw new IllegalArgumentException("receive plan must not be null (ReceivePlan.NONE for none)");
        }
        List<PeerConnection> all = new ArrayList<>();
        synchronized (this) {
            if (plan.equals(receivePlan)) {
                return;
            }
            receivePlan = plan;
            for (List<PeerConnection> l : connections.values()) {
                all.addAll(l);
            }
        }
        for (PeerConnection c : all) {
            c.planChanged();
        }
    }

    /** The receive plan in force. */
    public ReceivePlan receivePlan() {
        return receivePlan;
    }

    public ClientCounters counters() {
        return counters;
    }

    /** Bytes reserved by open streams against the node budget (for tests and metrics). */
    public long reservedBytes() {
        return nodeBudget.used();
    }

    /**
     * The connection for the next fetch to {@code peer}: one per peer, unless the peer asked for more
     * (a split, at most {@code maxConnectionsPerPeer}); then new connections are opened lazily and fetches
     * are spread over them round-robin.
     */
    private synchronized PeerConnection connectionTo(String peer) {
        if (closed) {
            throw new IllegalStateException("proxy client of " + self + " is closed");
        }
        List<PeerConnection> list = connections.get(peer);
        if (list == null) {
            list = new ArrayList<>();
            connections.put(peer, list);
        }
        int target = Math.min(maxConnectionsPerPeer, Math.max(1, desired.getOrDefault(peer, 1)));
        if (list.size() < target) {
            PeerConnection c = open(peer);
            list.add(c);
            return c;
        }
        int next = roundRobin.getOrDefault(peer, 0);
        roundRobin.put(peer, next + 1);
        return list.get(Math.floorMod(next, target));
    }

    private PeerConnection open(String peer) {
        NodeAddress address = NodeAddress.parse(peer);
        EventLoop loop = group.next();
        PeerConnection[] holder = new PeerConnection[1];
        connectionsOpened++;
        PeerConnection conn = new PeerConnection(self, peer, loop, window, connectionBudget, nodeBudget, counters,
                () -> forget(peer, holder[0]), n -> connectionsWanted(peer, n), self + "->" + peer + "#" + connectionsOpened,
                () -> receivePlan);
        holder[0] = conn;
        Bootstrap b = new Bootstrap().group(loop).channel(transport.socketChannel()).resolver(resolver)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
        if (receiveBufferBytes > 0) {
            b.option(ChannelOption.SO_RCVBUF, receiveBufferBytes);
        }
        b.handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new SelfConnectGuard(why -> conn.unreachable(ErrorCode.PEER_UNREACHABLE, why)),
                        new FrameDecoder(), encoder, new ClientConnectionHandler(conn));
            }
        });
        ChannelFuture f = b.connect(address.host(), address.port());
        f.addListener(done -> {
            if (!done.isSuccess()) {
                conn.unreachable(ErrorCode.PEER_UNREACHABLE, String.valueOf(done.cause()));
                return;
            }
            // A listener that accepts and stays silent (not a Courier proxy, or a hostile one a task named as its
            // source) would otherwise hold the streams' reserved budget until it closes.
            Channel ch = f.channel();
            ch.eventLoop().schedule(() -> conn.handshakeDeadline(ch, connectTimeoutMillis), connectTimeoutMillis,
                    TimeUnit.MILLISECONDS);
        });
        return conn;
    }

    private synchronized void connectionsWanted(String peer, int n) {
        desired.put(peer, n);
    }

    /** How many connections the peer currently asks for (1 unless its SelectAndSplit split the pair). */
    public synchronized int connectionsWanted(String peer) {
        return desired.getOrDefault(peer, 1);
    }

    private synchronized void forget(String peer, PeerConnection c) {
        List<PeerConnection> list = connections.get(peer);
        if (list != null) {
            list.remove(c);
            if (list.isEmpty()) {
                connections.remove(peer);
            }
        }
    }

    /**
     * Stops opening connections and stops the resolver thread; the owner closes the event loops, which closes
     * the open ones.
     */
    public synchronized void close() {
        closed = true;
        resolver.close();
    }
}
