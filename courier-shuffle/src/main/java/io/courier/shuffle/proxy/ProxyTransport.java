package io.courier.shuffle.proxy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/**
 * The socket transport of a proxy's event loops (setting {@code courier.proxy.transport}): Java NIO, or Linux's
 * native epoll. Epoll sends a zero-copy block with one {@code sendfile} call, where NIO's
 * {@code FileChannel.transferTo} adds an {@code fstat} per block; its effect on throughput is measured in
 * docs/benchmarks.md ("Proxy throughput"). The event-loop group and the channel classes must come from the same
 * transport, which is why they are chosen together here. Stateless: any thread may call it.
 */
public enum ProxyTransport {
    NIO, EPOLL;

    /** Whether {@code setting} is a value {@link #parse} accepts (any case, surrounding blanks ignored). */
    public static boolean isSetting(String setting) {
        if (setting == null) {
            return false;
        }
        String s = normalized(setting);
        return s.equals("auto") || s.equals("nio") || s.equals("epoll");
    }

    /** The setting's value: {@code auto} (epoll where it loads, else NIO), {@code nio} or {@code epoll}. */
    public static ProxyTransport parse(String setting) {
        switch (normalized(setting)) {
            case "auto":
                return Epoll.isAvailable() ? EPOLL : NIO;
            case "nio":
                return NIO;
            case "epoll":
                if (!Epoll.isAvailable()) {
                    throw new IllegalArgumentException("setting '" + ProxyConfig.TRANSPORT + "' is epoll, but the "
                            + "native epoll transport does not load here: " + Epoll.unavailabilityCause()
                            + " (use auto or nio)");
                }
                return EPOLL;
            default:
                throw new IllegalArgumentException("setting '" + ProxyConfig.TRANSPORT
                        + "' must be auto, nio or epoll, got " + setting);
        }
    }

    private static String normalized(String setting) {
        return setting.trim().toLowerCase(Locale.ROOT);
    }

    /** A new group of {@code threads} event loops of this transport; the caller owns it and shuts it down. */
    public EventLoopGroup newGroup(int threads, ThreadFactory threadFactory) {
        return this == EPOLL ? new EpollEventLoopGroup(threads, threadFactory)
                : new NioEventLoopGroup(threads, threadFactory);
    }

    public Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public Class<? extends SocketChannel> socketChannel() {
        return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
