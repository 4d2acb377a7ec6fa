package io.courier.shuffle.proxy.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.shuffle.proxy.ProxyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A TCP self-connection, made on purpose: the client binds the port it connects to, with nothing listening, so
 * the kernel joins the two ends (what a peer retrying a vacated proxy port in the ephemeral range gets by chance).
 */
@Timeout(60)
class SelfConnectGuardTest {

    @Test
    void aSelfConnectionIsRefusedBeforeTheHandshakeAndFreesThePortAtOnce() throws Exception {
        for (ProxyTransport t : Epoll.isAvailable()
                ? new ProxyTransport[] {ProxyTransport.NIO, ProxyTransport.EPOLL}
                : new ProxyTransport[] {ProxyTransport.NIO}) {
            EventLoopGroup group = t.newGroup(1, new DefaultThreadFactory("self-connect-test", true));
            try {
                int port = vacatedPort();
                AtomicReference<String> refused = new AtomicReference<>();
                AtomicBoolean activeBehind = new AtomicBoolean();
                Channel ch = connectToItself(group, t, port, refused, activeBehind);
                assertTrue(ch.closeFuture().await(10, TimeUnit.SECONDS), t + ": the self-connection stayed open");
                assertNotNull(refused.get(), t + ": the guard did not report the self-connection");
                assertTrue(refused.get().contains("itself") && refused.get().contains(String.valueOf(port)),
                        refused.get());
                assertFalse(activeBehind.get(), t + ": a handler behind the guard saw the self-connection active");
                // Closed abortively: nothing is left in TIME_WAIT (a minute) on the port, so its server can bind it
                // as soon as the socket is gone (NIO closes the descriptor when the selector lets go of it).
                assertBindableWithin(port, 2000, t);
            } finally {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            }
        }
    }

    @Test
    void anOrdinaryConnectionPassesAndTheGuardLeavesThePipeline() throws Exception {
        EventLoopGroup group = ProxyTransport.NIO.newGroup(1, new DefaultThreadFactory("self-connect-test", true));
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AtomicReference<String> refused = new AtomicReference<>();
            AtomicBoolean activeBehind = new AtomicBoolean();
            ChannelFuture f = new Bootstrap().group(group).channel(ProxyTransport.NIO.socketChannel())
                    .handler(pipeline(refused, activeBehind))
                    .connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort())).sync();
            server.accept().close();
            f.channel().close().sync();
            assertEquals(null, refused.get());
            assertTrue(activeBehind.get());
            assertEquals(null, f.channel().pipeline().get(SelfConnectGuard.class));
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static void assertBindableWithin(int port, long millis, ProxyTransport t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (true) {
            try (ServerSocket server = new ServerSocket()) {
                server.setReuseAddress(true);
                server.bind(new InetSocketAddress(port));
                return;
            } catch (java.io.IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(t + ": port " + port + " still taken " + millis
                            + " ms after the guard closed the self-connection", e);
                }
                Thread.sleep(20);
            }
        }
    }

    /** A loopback port nothing listens on, found by binding and closing a server (no connection, no TIME_WAIT). */
    private static int vacatedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Channel connectToItself(EventLoopGroup group, ProxyTransport t, int port,
            AtomicReference<String> refused, AtomicBoolean activeBehind) throws InterruptedException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        ChannelFuture f = new Bootstrap().group(group).channel(t.socketChannel())
                .handler(pipeline(refused, activeBehind))
                .connect(address, address).await();
        assertTrue(f.isSuccess(), () -> t + ": the kernel refused the self-connection the test needs: " + f.cause());
        return f.channel();
    }

    private static ChannelInitializer<SocketChannel> pipeline(AtomicReference<String> refused,
            AtomicBoolean activeBehind) {
        return new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new SelfConnectGuard(refused::set), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        activeBehind.set(true);
                        ctx.fireChannelActive();
                    }
                });
            }
        };
    }
}
