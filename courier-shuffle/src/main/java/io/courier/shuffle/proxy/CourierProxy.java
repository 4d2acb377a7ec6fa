package io.courier.shuffle.proxy;

import io.courier.shuffle.proxy.auth.SecretLookup;
import io.courier.shuffle.proxy.client.ClientCounters;
import io.courier.shuffle.proxy.client.FetchHandle;
import io.courier.shuffle.proxy.client.SegmentConsumer;
import io.courier.shuffle.proxy.client.ProxyClient;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.relay.RelayAccess;
import io.courier.shuffle.proxy.relay.RelayDomainSocket;
import io.courier.shuffle.proxy.relay.RelayService;
import io.courier.shuffle.proxy.relay.RelayStats;
import io.courier.shuffle.proxy.relay.TaskUsers;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.server.SendSettings;
import io.courier.shuffle.proxy.server.ServerConnectionHandler;
import io.courier.shuffle.proxy.server.ServerCounters;
import io.courier.shuffle.proxy.source.MapOutputLocator;
import io.courier.shuffle.proxy.source.SegmentSource;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.channel.unix.Errors;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.io.Closeable;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Courier proxy of one node: serves map-output segments to remote proxies over merged connections,
 * and fetches segments for local reducers over one unified connection per peer (DESIGN.md "The data path").
 * Owns its event loops: {@link #start()} binds, {@link #close()} stops everything it started.
 */
public final class CourierProxy implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(CourierProxy.class);
    /** Linux's errno for a port in use (the only system epoll runs on). */
    private static final int EADDRINUSE = 98;
    private final ProxyConfig config;
    private final SecretLookup secrets;
    private final SegmentSource source;
    /** Null: task users are not checked. */
    private final TaskUsers taskUsers;
    private final ServerCounters serverCounters = new ServerCounters();
    private ProxyTransport transport;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private ChannelGroup channels;
    private Channel serverChannel;
    private NodeAddress address;
    private SendScheduler scheduler;
    private ProxyClient client;
    private volatile RelayService relay;
    private RelayDomainSocket relaySocket;

    public CourierProxy(ProxyConfig config, SecretLookup secrets, MapOutputLocator locator) {
        this(config, secrets, locator, null);
    }

    /**
     * @param taskUsers the OS user each job's tasks run as, checked on every task connection (which must then come
     *                  over the relay's domain socket); null: no check
     */
    public CourierProxy(ProxyConfig config, SecretLookup secrets, MapOutputLocator locator, TaskUsers taskUsers) {
        this.config = config;
        this.secrets = secrets;
        this.source = new SegmentSource(locator);
        this.taskUsers = taskUsers;
    }

    /**
     * Binds the server port (and the relay's domain socket where {@code courier.proxy.relay.domain-socket} asks
     * for one) and readies the client; returns this proxy's node id ({@code host:port}).
     *
     * @throws IllegalStateException when the domain socket cannot be made while the settings require it
     */
    public synchronized String start() throws InterruptedException, BindException {
        if (boss != null) {
            throw new IllegalStateException("proxy already started at " + address);
        }
        transport = config.transport();
        boss = transport.newGroup(1, new DefaultThreadFactory("courier-proxy-accept", true));
        workers = transport.newGroup(config.ioThreads(), new DefaultThreadFactory("courier-proxy-io", true));
        channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        FrameEncoder encoder = new FrameEncoder();
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(transport.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // Let buffered (non zero-copy) blocks queue up to the send buffer, so that one gathering write
                // carries many frames; Netty's default 64 KiB high-water mark would flush them one by one.
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                        (int) Math.min(Integer.MAX_VALUE / 2, config.sendBuffer() / 2),
                        (int) Math.min(Integer.MAX_VALUE, config.sendBuffer() + 2L * Wire.MAX_DATA)))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ch.pipeline().addLast(new FrameDecoder(), encoder, serverHandler());
                    }
                });
        try {
            serverChannel = b.bind(config.bindHost(), config.port()).sync().channel();
        } catch (Exception e) {
            // Not only InterruptedException and RuntimeException: sync() rethrows a failed bind's checked
            // java.net.BindException undeclared, and that one must stop the event loops too (found by the proxy
            // soak: each failed restart on a taken port left three selectors and an accept thread behind).
            close();
            if (e instanceof Errors.NativeIoException && ((Errors.NativeIoException) e).expectedErr() == -EADDRINUSE) {
                // Epoll reports a taken port as its own IOException; callers retry on a BindException, which is
                // what NIO throws, so the two transports fail alike.
                BindException taken = new BindException(e.getMessage() + " (" + config.bindHost() + ":"
                        + config.port() + ")");
                taken.initCause(e);
                throw taken;
            }
            throw e;
        }
        InetSocketAddress bound = (InetSocketAddress) serverChannel.localAddress();
        address = new NodeAddress(config.host(), bound.getPort());
        scheduler = new SendScheduler(address.id(), config.maxNum(), config.minSize(), config.pacingBurst());
        client = new ProxyClient(address.id(), workers, transport, config.streamWindow(), config.connectionMaxInFlight(),
                config.nodeMaxInFlight(), config.connectTimeoutMillis(), config.maxConnectionsPerPeer(),
                config.receiveSocketBuffer());
        try {
            startRelay(encoder);
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        return address.id();
    }

    private void startRelay(FrameEncoder encoder) throws InterruptedException {
        boolean wantSocket = config.relayDomainSocket(transport);
        if (wantSocket) {
            try {
                relaySocket = RelayDomainSocket.bind(config.relayDomainSocketDir(), address.host(), address.port(),
                        boss, workers,
                        new ChannelInitializer<DomainSocketChannel>() {
                            @Override
                            protected void initChannel(DomainSocketChannel ch) {
                                channels.add(ch);
                                ch.pipeline().addLast(new FrameDecoder(), encoder, serverHandler());
                            }
                        });
            } catch (IOException e) {
                if ("true".equals(config.relayDomainSocket())) {
                    throw new IllegalStateException("proxy " + address.id() + ": " + e.getMessage() + " ("
                            + ProxyConfig.RELAY_DOMAIN_SOCKET + " is true)", e);
                }
                LOG.warn("proxy {}: {}; local tasks connect over loopback TCP", address.id(), e.getMessage());
            }
        }
        TaskUsers checked = taskUsers;
        if (checked != null && relaySocket == null) {
            String why = "the task-user check needs the relay's domain socket, and the proxy has none ("
                    + ProxyConfig.RELAY_DOMAIN_SOCKET + " " + config.relayDomainSocket() + ", " + transport
                    + " transport)";
            if ("true".equals(config.relayTaskUserCheck())) {
                throw new IllegalStateException("proxy " + address.id() + ": " + why + " while "
                        + ProxyConfig.RELAY_TASK_USER_CHECK + " is true");
            }
            LOG.warn("proxy {}: {}; task users are not checked", address.id(), why);
            checked = null;
        }
        relay = new RelayService(address.id(), client, new RelayAccess(config.relayAllowRemote()),
                config.relayMaxConnections(), config.relayRetryAfterMillis(), checked,
                config.connectionMaxOpenStreams());
    }

    /**
     * The first handler of an accepted connection (TCP or the relay's domain socket), on its event loop: it serves
     * a peer proxy or hands a task over to the relay.
     */
    private ServerConnectionHandler serverHandler() {
        return new ServerConnectionHandler(address.id(), secrets, source, scheduler, serverCounters,
                new SendSettings(config.sendBuffer(), config.transferTo(), config.blocksPerRun(),
                        config.connectionMaxOpenStreams()), relay);
    }

    /** The relay's domain socket, or null when local tasks connect over loopback TCP only. */
    public synchronized Path relaySocket() {
        requireStarted();
        return relaySocket == null ? null : relaySocket.path();
    }

    /** The transport the started proxy's event loops run on. */
    public synchronized ProxyTransport transport() {
        requireStarted();
        return transport;
    }

    /** This proxy's node id, {@code host:port}. */
    public synchronized String nodeId() {
        requireStarted();
        return address.id();
    }

    /**
     * Fetches reduce {@code partition} of {@code mapAttempt}'s output of {@code job} from the proxy {@code peer}
     * for a local reducer, authenticated with the job's secret (the reducer's {@code getShuffleSecret()}).
     */
    public SegmentStream fetch(String peer, String job, String mapAttempt, int partition, byte[] jobSecret) {
        return client().fetch(peer, job, mapAttempt, partition, jobSecret);
    }

    /**
     * Like {@link #fetch(String, String, String, int, byte[])}, with the bytes handed to {@code consumer} on the
     * proxy's event loop (no thread hand-off; the consumer must not block).
     */
    public FetchHandle fetch(String peer, String job, String mapAttempt, int partition, byte[] jobSecret,
            SegmentConsumer consumer) {
        return client().fetch(peer, job, mapAttempt, partition, jobSecret, consumer);
    }

    /** The sender-side block scheduler: give it the current decision for the flows this node sends. */
    public synchronized SendScheduler scheduler() {
        requireStarted();
        return scheduler;
    }

    /**
     * Installs the receiving half of the schedule for the flows this node fetches (any thread): local fetches that
     * wait for receive buffer are admitted by it. {@link ReceivePlan#NONE}: every job alike.
     */
    public void applyReceivePlan(ReceivePlan plan) {
        client().applyReceivePlan(plan);
    }

    /** The receive plan in force ({@link #applyReceivePlan}). */
    public ReceivePlan receivePlan() {
        return client().receivePlan();
    }

    /** Counters of the relay for local tasks ({@code LocalProxyClient} connections). */
    public RelayStats relayStats() {
        RelayService r = relay;
        if (r == null) {
            throw new IllegalStateException("proxy is not started");
        }
        return r.stats();
    }

    /**
     * Forgets what this proxy cached for {@code job} (checked map-output indexes) once the job has ended on this
     * node. Any thread.
     */
    public void jobFinished(String job) {
        source.forgetJob(job);
        SendScheduler s;
        synchronized (this) {
            s = scheduler;
        }
        if (s != null) {
            s.ledger().forgetJob(job);
        }
    }

    /** The configuration this proxy was started with. */
    public ProxyConfig config() {
        return config;
    }

    public ServerCounters serverCounters() {
        return serverCounters;
    }

    /** How many connections the proxy {@code peer} asks this node to use towards it (see {@code CONNECTIONS}). */
    public int connectionsWanted(String peer) {
        return client().connectionsWanted(peer);
    }

    public ClientCounters clientCounters() {
        return client().counters();
    }

    /** Bytes of stream windows currently reserved by local fetches (bounded by the node budget). */
    public long reservedBytes() {
        return client().reservedBytes();
    }

    private synchronized ProxyClient client() {
        requireStarted();
        return client;
    }

    private void requireStarted() {
        if (address == null) {
            throw new IllegalStateException("proxy is not started");
        }
    }

    /** Closes the listening socket and every connection, and stops the event loops. Idempotent. */
    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
        }
        if (relaySocket != null) {
            relaySocket.close();
            relaySocket = null;
        }
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
            serverChannel = null;
        }
        if (channels != null) {
            channels.close().awaitUninterruptibly();
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            boss = null;
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            workers = null;
        }
    }
}
