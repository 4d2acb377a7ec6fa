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
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The relay's Unix domain socket, the way in for this node's reduce tasks (docs/architecture.md, "The task
 * hand-off"): no TCP stack on either side of the hand-off, and the kernel tells the proxy which user the
 * connecting process runs as ({@link TaskPeer}). The socket {@code relay.sock} lives in a directory of the
 * proxy's own, {@code courier-relay-<host>-<port>} in {@code courier.proxy.relay.domain-socket.dir}, mode 0711:
 * other users reach the socket whose path the container environment gives them but cannot list the directory,
 * nor create or replace anything in it. The name is the same at every start, so reducers that outlive a
 * NodeManager restart find the restarted proxy where they found the old one; for the same reason the directory
 * stays when the proxy stops (only the socket goes), since a directory removed at stop could be taken by anyone
 * until the next start. An existing directory is reused only if it is a real directory of the proxy's own user
 * that nobody else may write to; anything else (a squatter's directory, a link) is refused with the reason. The
 * socket itself is 0666: Linux asks for write permission to connect, and who may do what is the relay's to decide
 * (the job MACs, and the task-user check).
 *
 * <p>Owned by {@code CourierProxy}: {@link #bind} on its start, {@link #close} on its stop. Runs on the proxy's
 * epoll event loops, so it exists only with that transport.
 */
public final class RelayDomainSocket implements Closeable {
    /** The longest path Linux's {@code sockaddr_un} holds (108 bytes with the terminating NUL). */
    static final int MAX_PATH_BYTES = 107;
    static final String SOCKET_NAME = "relay.sock";
    private final Path socket;
    private final Channel server;

    private RelayDomainSocket(Path socket, Channel server) {
        this.socket = socket;
        this.server = server;
    }

    /** The directory of the proxy {@code host:port} under {@code parent}. */
    static Path directory(Path parent, String host, int port) {
        return parent.resolve("courier-relay-" + host.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + port);
    }

    /**
     * Makes or checks the directory of the proxy {@code host:port} under {@code parent} (made if missing) and
     * listens on {@code relay.sock} in it, giving each accepted connection to {@code init}.
     *
     * @throws IOException naming the path when the directory cannot be made or trusted, or the path is too long
     *                     for a socket address
     */
    public static RelayDomainSocket bind(Path parent, String host, int port, EventLoopGroup boss,
            EventLoopGroup workers, ChannelInitializer<DomainSocketChannel> init) throws IOException,
            InterruptedException {
        Path dir = directory(parent, host, port);
        Path socket = dir.resolve(SOCKET_NAME);
        int length = socket.toString().getBytes(StandardCharsets.UTF_8).length;
        if (length > MAX_PATH_BYTES) {
            throw new IOException("the relay's domain socket path " + socket + " is " + length + " bytes, more than"
                    + " the " + MAX_PATH_BYTES + " a socket address holds; set courier.proxy.relay.domain-socket.dir"
                    + " to a shorter directory");
        }
        Files.createDirectories(parent);
        ownDirectory(dir);
        Files.deleteIfExists(socket); // a previous run's, in the proxy's own directory
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
        } catch (IOException | RuntimeException e) {
            server.close().awaitUninterruptibly();
            deleteQuietly(socket);
            throw e;
        }
        return new RelayDomainSocket(socket, server);
    }

    /**
     * Creates {@code dir} with mode 0711, or accepts an existing one only if it is a directory (not a link) of this
     * process's user that group and others cannot write to.
     */
    private static void ownDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
        } catch (FileAlreadyExistsException e) {
            PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            String me = System.getProperty("user.name");
            Set<PosixFilePermission> p = a.permissions();
            if (!a.isDirectory() || !a.owner().getName().equals(me) || p.contains(PosixFilePermission.GROUP_WRITE)
                    || p.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new IOException("refusing the relay's socket directory " + dir + ": it is "
                        + (a.isSymbolicLink() ? "a symbolic link" : a.isDirectory() ? "a directory" : "not a directory")
                        + " of " + a.owner().getName() + " with mode " + PosixFilePermissions.toString(p)
                        + ", not a directory of " + me + " that only " + me + " may write to");
            }
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    }

    /** The socket's path, which reduce tasks find in the service metadata. */
    public Path path() {
        return socket;
    }

    /** Stops listening (accepted connections stay the proxy's) and removes the socket; the directory stays. */
    @Override
    public void close() {
        server.close().awaitUninterruptibly();
        deleteQuietly(socket);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Left in the proxy's own directory; the next start replaces it.
        }
    }
}
