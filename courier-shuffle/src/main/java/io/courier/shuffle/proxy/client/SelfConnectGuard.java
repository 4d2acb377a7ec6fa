package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.SelfConnection;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * The first handler of an outgoing proxy connection: a connection that turns out to be connected to itself
 * ({@link SelfConnection}) is closed abortively before the handlers behind it see it active — no handshake is
 * written to itself — and reported to {@code refused} with the reason; any other connection goes on as usual
 * and the guard leaves the pipeline. One instance per connection; runs on the channel's event loop.
 */
final class SelfConnectGuard extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(SelfConnectGuard.class);
    private final Consumer<String> refused;

    SelfConnectGuard(Consumer<String> refused) {
        this.refused = refused;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        if (SelfConnection.isSelf(ch.localAddress(), ch.remoteAddress())) {
            String why = SelfConnection.describe(ch.remoteAddress());
            LOG.warn("Refused a self-connection: {}", why);
            refused.accept(why);
            // RST instead of FIN: a closed self-connection would otherwise hold the port in TIME_WAIT.
            ch.config().setOption(ChannelOption.SO_LINGER, 0);
            ctx.close();
            return;
        }
        ctx.fireChannelActive();
        ctx.pipeline().remove(this);
    }
}
