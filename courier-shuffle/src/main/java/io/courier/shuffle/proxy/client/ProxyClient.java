package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.util.HashMap;
import java.util.Map;

/**
 * The fetching half of a proxy: at most one open {@link PeerConnection} per peer node, opened lazily by the
 * first fetch for that peer and shared by every later one; a lost connection is replaced on the next fetch.
 * Uses the event loops of its owner ({@code CourierProxy}), which starts and stops them. Thread-safe.
 */
public final class ProxyClient {
    private final String self;
    private final EventLoopGroup group;
    private final int window;
    private final long connectionBudget;
    private final MemoryBudget nodeBudget;
    private final int connectTimeoutMillis;
    private final ClientCounters counters = new ClientCounters();
    private final FrameEncoder encoder = new FrameEncoder();
    private final Map<String, PeerConnection> connections = new HashMap<>();
    private boolean closed;

    public ProxyClient(String self, EventLoopGroup group, int window, long connectionBudget, long nodeBudget,
            int connectTimeoutMillis) {
        if (window <= 0 || window > connectionBudget || connectionBudget > nodeBudget) {
            throw new IllegalArgumentException("need 0 < stream window (" + window + ") <= connection budget ("
                    + connectionBudget + ") <= node budget (" + nodeBudget + ")");
        }
        this.self = self;
        this.group = group;
        this.window = window;
        this.connectionBudget = connectionBudget;
        this.nodeBudget = new MemoryBudget(nodeBudget);
        this.connectTimeoutMillis = connectTimeoutMillis;
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

    public ClientCounters counters() {
        return counters;
    }

    /** Bytes reserved by open streams against the node budget (for tests and metrics). */
    public long reservedBytes() {
        return nodeBudget.used();
    }

    private synchronized PeerConnection connectionTo(String peer) {
        if (closed) {
            throw new IllegalStateException("proxy client of " + self + " is closed");
        }
        PeerConnection c = connections.get(peer);
        if (c != null) {
            return c;
        }
        NodeAddress address = NodeAddress.parse(peer);
        EventLoop loop = group.next();
        PeerConnection[] holder = new PeerConnection[1];
        PeerConnection conn = new PeerConnection(self, peer, loop, window, connectionBudget, nodeBudget, counters,
                () -> forget(peer, holder[0]));
        holder[0] = conn;
        connections.put(peer, conn);
        Bootstrap b = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FrameDecoder(), encoder, new ClientConnectionHandler(conn));
                    }
                });
        ChannelFuture f = b.connect(address.host(), address.port());
        f.addListener(done -> {
            if (!done.isSuccess()) {
                conn.lost("cannot connect to " + peer + ": " + done.cause());
            }
        });
        return conn;
    }

    private synchronized void forget(String peer, PeerConnection c) {
        if (connections.get(peer) == c) {
            connections.remove(peer);
        }
    }

    /** Stops opening connections; the owner closes the event loops, which closes the open ones. */
    public synchronized void close() {
        closed = true;
    }
}
