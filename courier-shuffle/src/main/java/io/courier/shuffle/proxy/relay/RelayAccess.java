package io.courier.shuffle.proxy.relay;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.SocketException;

/**
 * Decides whether a task connection may use this proxy as a relay: only tasks on this host (loopback, or an
 * address of one of this host's interfaces) unless {@code courier.proxy.relay.allow-remote} is set. A remote
 * client could otherwise use the proxy to reach any node's proxy through it. Immutable.
 */
public final class RelayAccess {
    private final boolean allowRemote;

    public RelayAccess(boolean allowRemote) {
        this.allowRemote = allowRemote;
    }

    /** Whether a connection from {@code remote}, accepted on {@code local}, may relay. */
    public boolean allows(SocketAddress remote, SocketAddress local) {
        if (allowRemote) {
            return true;
        }
        if (!(remote instanceof InetSocketAddress)) {
            return false;
        }
        InetAddress from = ((InetSocketAddress) remote).getAddress();
        if (from == null) {
            return false;
        }
        if (from.isLoopbackAddress()) {
            return true;
        }
        if (local instanceof InetSocketAddress && from.equals(((InetSocketAddress) local).getAddress())) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(from) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    public boolean allowRemote() {
        return allowRemote;
    }
}
