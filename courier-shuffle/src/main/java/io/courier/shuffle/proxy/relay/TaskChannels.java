package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.SelfConnection;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Opens a reduce task's blocking channel to its node's proxy: the relay's Unix domain socket where the node
 * has one and this JVM can open it (Java 16 or later), else loopback TCP. The task jar is built for Java 8 and
 * free of Netty, so the JDK's domain-socket channels (Java 16: {@code UnixDomainSocketAddress},
 * {@code SocketChannel.open(StandardProtocolFamily.UNIX)}) are found by reflection once per class load.
 * Stateless apart from those immutable handles; any thread.
 */
final class TaskChannels {
    /** Null before Java 16. */
    private static final Method ADDRESS_OF;
    private static final Method OPEN_FAMILY;
    private static final ProtocolFamily UNIX;

    static {
        Method of = null;
        Method open = null;
        ProtocolFamily unix = null;
        try {
            of = Class.forName("java.net.UnixDomainSocketAddress").getMethod("of", String.class);
            open = SocketChannel.class.getMethod("open", ProtocolFamily.class);
            unix = StandardProtocolFamily.valueOf("UNIX");
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            of = null; // an older JVM: loopback TCP only
        }
        ADDRESS_OF = of;
        OPEN_FAMILY = of == null ? null : open;
        UNIX = of == null ? null : unix;
    }

    private TaskChannels() {
    }

    /** Whether this JVM opens Unix domain socket channels. */
    static boolean domainSocketsSupported() {
        return ADDRESS_OF != null;
    }

    /**
     * A blocking channel connected to the domain socket at {@code path}.
     *
     * @throws IOException naming the path when it cannot be connected (no such socket, no proxy behind it)
     * @throws UnsupportedOperationException before Java 16
     */
    static SocketChannel openDomain(String path) throws IOException {
        if (!domainSocketsSupported()) {
            throw new UnsupportedOperationException("Unix domain socket channels need Java 16 or later; this is "
                    + System.getProperty("java.version"));
        }
        SocketChannel channel;
        SocketAddress address;
        try {
            address = (SocketAddress) ADDRESS_OF.invoke(null, path);
            channel = (SocketChannel) OPEN_FAMILY.invoke(null, UNIX);
        } catch (IllegalAccessException e) {
            throw new UnsupportedOperationException("cannot open a Unix domain socket channel: " + e, e);
        } catch (InvocationTargetException e) {
            throw new IOException("cannot open the relay socket " + path + ": " + e.getCause(), e.getCause());
        }
        try {
            channel.connect(address);
            return channel;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw new IOException("cannot connect to the relay socket " + path + ": " + e, e);
        }
    }

    /** A blocking channel connected to {@code proxy} over TCP, with Nagle off, within {@code timeoutMillis}. */
    static SocketChannel openTcp(NodeAddress proxy, int timeoutMillis) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            Socket socket = channel.socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(proxy.host(), proxy.port()), timeoutMillis);
            SelfConnection.refuseIfSelf(socket); // a proxy port in the ephemeral range, its proxy down
            return channel;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * {@code channel} (blocking, connected) as a channel whose reads wait at most until {@code timeoutMillis}
     * from now; for the handshake, before the reader thread owns the channel. A domain socket channel has no
     * {@code SO_TIMEOUT}, so the wait is a selector's. The caller closes the returned reads, which puts
     * {@code channel} back in blocking mode.
     */
    static TimedReads timedReads(SocketChannel channel, int timeoutMillis) throws IOException {
        return new TimedReads(channel, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    }

    /** Reads with a deadline; see {@link #timedReads}. Confined to the opening thread. */
    static final class TimedReads implements ReadableByteChannel {
        private final SocketChannel channel;
        private final long deadlineNanos;
        private final Selector selector;

        private TimedReads(SocketChannel channel, long deadlineNanos) throws IOException {
            this.channel = channel;
            this.deadlineNanos = deadlineNanos;
            this.selector = Selector.open();
            try {
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ);
            } catch (IOException | RuntimeException e) {
                selector.close();
                throw e;
            }
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            while (true) {
                int n = channel.read(dst);
                if (n != 0 || !dst.hasRemaining()) {
                    return n;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
                if (left <= 0) {
                    throw new SocketTimeoutException("no answer within the connect timeout");
                }
                selector.select(left);
                selector.selectedKeys().clear();
            }
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }

        /** Deregisters the channel (closing the selector) and makes it blocking again. */
        @Override
        public void close() throws IOException {
            selector.close();
            if (channel.isOpen()) {
                channel.configureBlocking(true);
            }
        }
    }

    static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing more to release
        }
    }
}
