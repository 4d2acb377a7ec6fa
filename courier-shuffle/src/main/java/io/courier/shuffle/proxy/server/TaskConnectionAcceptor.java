package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;

/**
 * Where the server pipeline hands a connection whose HANDSHAKE has the {@code TASK} role (a local reducer
 * asking this proxy to relay its fetches). Called on the channel's event loop.
 */
public interface TaskConnectionAcceptor {
    /**
     * Returns the handler that replaces the serving handler for this connection.
     *
     * @throws ProtocolException to refuse the connection (answered with ERROR on stream 0, then closed)
     */
    ChannelHandler accept(Channel channel, HandshakeFrame hello) throws ProtocolException;
}
