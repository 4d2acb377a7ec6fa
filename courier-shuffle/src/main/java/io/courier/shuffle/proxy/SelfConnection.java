package io.courier.shuffle.proxy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * TCP self-connections. A client that connects to a port of its own host on which nothing listens can be
 * given that very port as its own ephemeral port when the port lies in the kernel's ephemeral range; the
 * two SYNs then meet (simultaneous open) and the connection succeeds — to itself. That socket holds the
 * port, so the server that should own it (a NodeManager restarting its proxy on the same port) cannot bind
 * it, and a plain close leaves it in TIME_WAIT for a minute, still holding it. On Linux a loop of refused
 * attempts to a vacated port got there after a hundred to tens of thousands of them (docs/benchmarks.md, "A
 * restarted proxy's port"): peers retrying a restarting node may.
 *
 * <p>Every client of Courier's protocol checks a fresh connection with {@link #isSelf} before writing
 * anything, and closes a self-connection abortively (SO_LINGER 0, no TIME_WAIT), reporting it as the
 * refusal it stands for. Stateless; any thread. No Netty here: the task side uses it too.
 */
public final class SelfConnection {
    private SelfConnection() {
    }

    /** Whether a connected socket's two ends are the same address and port. */
    public static boolean isSelf(SocketAddress local, SocketAddress remote) {
        if (!(local instanceof InetSocketAddress) || !(remote instanceof InetSocketAddress)) {
            return false;
        }
        InetSocketAddress l = (InetSocketAddress) local;
        InetSocketAddress r = (InetSocketAddress) remote;
        return l.getPort() == r.getPort() && l.getAddress() != null && l.getAddress().equals(r.getAddress());
    }

    /** What a refused self-connection to {@code remote} is reported as. */
    public static String describe(SocketAddress remote) {
        return "the connection to " + remote + " was made to itself (TCP self-connection: nothing listens on that"
                + " port and the kernel chose it as the connection's own port); closed at once to leave the port free"
                + " for its server";
    }

    /**
     * Throws if {@code socket} (connected, blocking) is connected to itself, after closing it abortively so that
     * the port is free at once.
     *
     * @throws ConnectException naming the address, as a refused connection would
     */
    public static void refuseIfSelf(Socket socket) throws ConnectException {
        SocketAddress remote = socket.getRemoteSocketAddress();
        if (!isSelf(socket.getLocalSocketAddress(), remote)) {
            return;
        }
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (java.io.IOException e) {
            // Closing is best effort; the refusal below is what the caller must see.
        }
        throw new ConnectException(describe(remote));
    }
}
