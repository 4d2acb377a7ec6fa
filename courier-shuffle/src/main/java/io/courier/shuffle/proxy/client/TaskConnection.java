package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * A task's one connection to its node's proxy (handshake role {@code TASK}): every fetch is sent as a
 * RELAY_FETCH naming the source proxy and comes back as an ordinary {@link SegmentStream}, with the same
 * per-stream credit, reply-MAC check and blocking reads as a proxy's own fetches. When the connection is lost
 * (or cannot be opened) every open stream fails with the retryable {@code PEER_LOST} naming the local proxy.
 * Runs on the event loop it is given; its owner ({@code LocalProxyClient}) owns that loop. Thread-safe.
 */
public final class TaskConnection {
    private final PeerConnection connection;
    private final long readTimeoutMillis;
    private volatile ChannelFuture connect;
    private volatile boolean lost;

    private TaskConnection(String self, String localProxy, EventLoop loop, int window, long maxInFlight,
            long readTimeoutMillis, ClientCounters counters, Runnable onClosed) {
        this.readTimeoutMillis = readTimeoutMillis;
        this.connection = new PeerConnection(self, "local proxy " + localProxy, loop, window, maxInFlight,
                new MemoryBudget(maxInFlight), counters, () -> {
                    lost = true;
                    onClosed.run();
                }, n -> { }, HandshakeFrame.Role.TASK, self + "->" + localProxy);
    }

    /** Whether the connection was lost or could not be opened (then it fails every fetch: open a new one). */
    public boolean isLost() {
        return lost;
    }

    /**
     * Starts connecting to the proxy {@code localProxy} ({@code host:port}); fetches may be submitted at once and
     * are sent when the connection is up. {@code onClosed} runs on the event loop once the connection is lost.
     * Called by the owner of {@code loop}, from any thread.
     */
    public static TaskConnection open(String self, String localProxy, EventLoop loop, int window, long maxInFlight,
            int connectTimeoutMillis, long readTimeoutMillis, ClientCounters counters, Runnable onClosed) {
        NodeAddress address = NodeAddress.parse(localProxy);
        TaskConnection t = new TaskConnection(self, localProxy, loop, window, maxInFlight, readTimeoutMillis,
                counters, onClosed);
        PeerConnection conn = t.connection;
        Bootstrap b = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FrameDecoder(), new FrameEncoder(), new ClientConnectionHandler(conn));
                    }
                });
        ChannelFuture f = b.connect(address.host(), address.port());
        t.connect = f;
        f.addListener(done -> {
            if (!done.isSuccess()) {
                conn.lost("cannot connect: " + done.cause());
            }
        });
        return t;
    }

    /** Completes when the TCP connection is established or has failed. */
    public ChannelFuture connectFuture() {
        return connect;
    }

    /** Asks the local proxy to relay {@code partition} of {@code mapAttempt} of {@code job} from {@code source}. */
    public SegmentStream fetch(String source, String job, String mapAttempt, int partition, byte[] jobSecret) {
        SegmentStream s = new SegmentStream(source, job, mapAttempt, partition, readTimeoutMillis);
        s.relaySource = source;
        connection.submit(s, jobSecret);
        return s;
    }

    /** Closes the connection; open streams fail with {@code PEER_LOST}. */
    public void close() {
        Channel ch = connect.channel();
        ch.close();
        connection.loop().execute(() -> connection.lost("closed by the task"));
    }
}
