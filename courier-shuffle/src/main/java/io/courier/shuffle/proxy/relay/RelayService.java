package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.client.ProxyClient;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.server.TaskConnectionAcceptor;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relaying half of a proxy: accepts local task connections (after {@link RelayAccess}) and gives each a
 * {@link RelayConnectionHandler} that forwards its fetches over this node's shared {@link ProxyClient}
 * connections. Holds no secrets. Thread-safe; owned by {@code CourierProxy}.
 */
public final class RelayService implements TaskConnectionAcceptor {
    private static final Logger LOG = LoggerFactory.getLogger(RelayService.class);
    private final String nodeId;
    private final ProxyClient client;
    private final RelayAccess access;
    private final RelayStats stats = new RelayStats();

    public RelayService(String nodeId, ProxyClient client, RelayAccess access) {
        this.nodeId = nodeId;
        this.client = client;
        this.access = access;
    }

    @Override
    public ChannelHandler accept(Channel channel, HandshakeFrame hello) throws ProtocolException {
        if (!access.allows(channel.remoteAddress(), channel.localAddress())) {
            stats.refusedConnections.incrementAndGet();
            LOG.warn("refused relay connection of task {} from {} (courier.proxy.relay.allow-remote is false)",
                    hello.nodeId(), channel.remoteAddress());
            throw new ProtocolException(ErrorCode.RELAY_NOT_ALLOWED, "proxy " + nodeId + " relays only for local tasks ("
                    + hello.nodeId() + " connected from " + channel.remoteAddress() + "; see courier.proxy.relay.allow-remote)");
        }
        stats.taskConnections.incrementAndGet();
        return new RelayConnectionHandler(nodeId, hello.nodeId(), client, stats);
    }

    public RelayStats stats() {
        return stats;
    }
}
