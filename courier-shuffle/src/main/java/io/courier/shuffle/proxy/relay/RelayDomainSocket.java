package io.courier.shuffle.proxy.relay;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketChannel;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The relay's Unix domain socket, the cheaper way in for this node's reduce tasks (docs/architecture.md, "The
 * task hand-off"): no TCP stack on either side of the hand-off, and the kernel tells the proxy which user the
 * connecting process runs as ({@link TaskPeer}). The socket lives in a directory of its own, created with an
 * unguessable name and mode 0711 in {@code courier.proxy.relay.domain-socket.dir}: other users can reach the
 * socket whose path the container environment gives them but cannot list the directory, nor create or replace
 * anything in it, so no local process can squat the path or stand in for the proxy, across restarts too (each
 * start makes a new directory). The socket itself is 0666: Linux asks for write permission to connect, and who
 * may do what is the relay's to decide (the job MACs, and the task-user check).
 *
 * <p>Owned by {@code CourierProxy}: {@link #bind} on its start, {@link #close} on its stop, which also removes
 * the socket and its directory. Runs on the proxy's epoll event loops, so it exists only with that transport.
 */
public final class RelayDomainSocket implements Closeable {
    /** The longest path Linux's {@code sockaddr_un} holds (108 bytes with the terminating NUL). */
    static final int MAX_PATH_BYTES = 107;
    private final Path dir;
    private final Path socket;
    private final Channel server;

    private RelayDomainSocket(Path dir, Path socket, Channel server) {
        this.dir = dir;
        this.socket = socket;
        this.server = server;
    }

    /**
     * Creates a private directory under {@code parent} (made if missing) and listens on {@code relay.sock} in it,
     * giving each accepted connection to {@code init}.
     *
     * @throws IOException naming the path when the directory cannot be made or the path is too long for a
     *                     socket address
     */
    public static RelayDomainSocket bind(Path parent, EventLoopGroup boss, EventLoopGroup workers,
            ChannelInitializer<DomainSocketChannel> init) throws IOException, InterruptedException {
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, "courier-relay-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            Path socket = dir.resolve("relay.sock");
            int length = socket.toString().getBytes(StandardCharsets.UTF_8).length;
            if (length > MAX_PATH_BYTES) {
                throw new IOException("the relay's domain socket path " + socket + " is " + length + " bytes, more than"
                        + " the " + MAX_PATH_BYTES + " a socket address holds; set courier.proxy.relay.domain-socket.dir"
                        + " to a shorter directory");
            }
            Channel server;
            try {
                server = new ServerBootstrap().group(boss, workers).channel(EpollServerDomainSocketChannel.class)
                        .childHandler(init).bind(new DomainSocketAddress(socket.toFile())).sync().channel();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                // sync() rethrows the bind's checked exception undeclared
                throw new IOException("cannot listen on the relay's domain socket " + socket + ": " + e, e);
            }
            try {
                Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
            } catch (IOException | RuntimeException e) {
                server.close().awaitUninterruptibly();
                throw e;
            }
            return new RelayDomainSocket(dir, socket, server);
        } catch (IOException | RuntimeException | InterruptedException e) {
            deleteQuietly(dir.resolve("relay.sock"));
            deleteQuietly(dir);
            throw e;
        }
    }

    /** The socket's path, which reduce tasks find in the service metadata. */
    public Path path() {
        return socket;
    }

    /** Stops listening (accepted connections stay the proxy's) and removes the socket and its directory. */
    @Override
    public void close() {
        server.close().awaitUninterruptibly();
        deleteQuietly(socket);
        deleteQuietly(dir);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Left behind in the temporary directory; the next start makes a new one and never reads this.
        }
    }
}
