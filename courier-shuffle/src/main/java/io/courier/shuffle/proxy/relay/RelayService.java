package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.UidNames;
import io.courier.shuffle.proxy.client.ProxyClient;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.server.TaskConnectionAcceptor;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.channel.unix.PeerCredentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Paths;

/**
 * The relaying half of a proxy: accepts local task connections (after {@link RelayAccess}, and up to
 * {@code courier.proxy.relay.max-connections} at once) and gives each a {@link RelayConnectionHandler} that
 * forwards its fetches over this node's shared {@link ProxyClient} connections. Tasks connect over loopback TCP
 * or over the relay's {@link RelayDomainSocket}; with {@link TaskUsers} set, only over the latter, whose peer
 * credentials give the task's OS user for the {@link TaskUserGate}. Holds no secrets. Thread-safe
 * ({@link #accept} runs on the event loop of the connection being accepted, so on several loops at once);
 * owned by {@code CourierProxy}.
 */
public final class RelayService implements TaskConnectionAcceptor {
    /** {@code maxConnections} meaning "no cap" (Hadoop's {@code mapreduce.shuffle.max.connections} = 0). */
    public static final int UNLIMITED = 0;
    private static final Logger LOG = LoggerFactory.getLogger(RelayService.class);
    private final String nodeId;
    private final ProxyClient client;
    private final RelayAccess access;
    private final int maxConnections;
    private final int retryAfterMillis;
    private final RelayStats stats = new RelayStats();
    /** Null: task users are not checked. */
    private final TaskUsers taskUsers;
    private final int maxOpenStreams;
    private final UidNames userNames = new UidNames();

    /**
     * @param maxConnections task connections open at once beyond which a new one is refused with OVERLOADED
     *                       ({@link #UNLIMITED}: no cap)
     * @param retryAfterMillis what such a refusal tells the task to wait before it connects again (&ge; 1)
     * @param taskUsers the user each job's tasks run as, checked against every task connection; null: no check
     * @param maxOpenStreams relayed streams one task connection may have open at once
     */
    public RelayService(String nodeId, ProxyClient client, RelayAccess access, int maxConnections,
            int retryAfterMillis, TaskUsers taskUsers, int maxOpenStreams) {
        if (maxConnections < 0 || retryAfterMillis < 1) {
            throw new IllegalArgumentException("relay of " + nodeId + ": max connections must be >= 0 and retry-after"
                    + " >= 1 ms, got " + maxConnections + " and " + retryAfterMillis);
        }
        this.nodeId = nodeId;
        this.client = client;
        this.access = access;
        this.maxConnections = maxConnections;
        this.retryAfterMillis = retryAfterMillis;
        this.taskUsers = taskUsers;
        this.maxOpenStreams = maxOpenStreams;
    }

    @Override
    public ChannelHandler accept(Channel channel, HandshakeFrame hello) throws ProtocolException {
        boolean domain = channel instanceof DomainSocketChannel; // local by construction
        if (!domain && !access.allows(channel.remoteAddress(), channel.localAddress())) {
            stats.refusedConnections.incrementAndGet();
            LOG.warn("refused relay connection of task {} from {} (courier.proxy.relay.allow-remote is false)",
                    hello.nodeId(), channel.remoteAddress());
            throw new ProtocolException(ErrorCode.RELAY_NOT_ALLOWED, "proxy " + nodeId + " relays only for local tasks ("
                    + hello.nodeId() + " connected from " + channel.remoteAddress() + "; see courier.proxy.relay.allow-remote)");
        }
        TaskUserGate gate = taskUsers == null ? null : userGate(channel, hello, domain);
        if (!admit()) {
            long n = stats.overloadedConnections.incrementAndGet();
            // One line per refusal would flood the NodeManager log exactly when it is busiest.
            if (Long.bitCount(n) == 1) {
                LOG.warn("refused relay connection of task {}: the cap of {} open task connections is reached;"
                        + " tasks retry after {} ms ({} refusals so far)", hello.nodeId(), maxConnections,
                        retryAfterMillis, n);
            }
            throw new ProtocolException(ErrorCode.OVERLOADED, "proxy " + nodeId + " relays for at most "
                    + maxConnections + " tasks at once (courier.proxy.relay.max-connections); retry after "
                    + retryAfterMillis + " ms", retryAfterMillis);
        }
        channel.closeFuture().addListener(f -> stats.openTaskConnections.decrementAndGet());
        stats.taskConnections.incrementAndGet();
        if (domain) {
            stats.domainSocketConnections.incrementAndGet();
        }
        return new RelayConnectionHandler(nodeId, hello.nodeId(), client, stats, gate, maxOpenStreams);
    }

    /**
     * The user check of a task connection, from its peer credentials; refused over TCP, which has none (a task
     * on a JVM without domain sockets, before Java 16, cannot fetch through a proxy that checks users).
     */
    private TaskUserGate userGate(Channel channel, HandshakeFrame hello, boolean domain) throws ProtocolException {
        String why;
        if (domain && channel instanceof EpollDomainSocketChannel) {
            try {
                PeerCredentials c = ((EpollDomainSocketChannel) channel).peerCredentials();
                // The owner of /proc/<pid> is the process's uid.
                TaskPeer peer = new TaskPeer(c.pid(), c.uid(), userNames.nameOf(c.uid(),
                        Paths.get("/proc", Integer.toString(c.pid()))));
                return new TaskUserGate(nodeId, hello.nodeId(), peer, taskUsers, stats);
            } catch (IOException e) {
                why = "cannot tell the user of task " + hello.nodeId() + ": " + e.getMessage();
            }
        } else {
            why = "task " + hello.nodeId() + " connected over TCP from " + channel.remoteAddress() + ", which does not"
                    + " tell its user; this proxy checks task users and takes tasks on its domain socket only (tasks"
                    + " need Java 16 or later)";
        }
        throw TaskUserGate.refusal(nodeId, stats, why);
    }

    /** Takes one of the {@code maxConnections} slots, if one is free; it is given back when the channel closes. */
    private boolean admit() {
        while (true) {
            int open = stats.openTaskConnections.get();
            if (maxConnections != UNLIMITED && open >= maxConnections) {
                return false;
            }
            if (stats.openTaskConnections.compareAndSet(open, open + 1)) {
                return true;
            }
        }
    }

    public RelayStats stats() {
        return stats;
    }
}
