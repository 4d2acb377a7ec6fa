package io.courier.shuffle.proxy;

/**
 * A proxy's identity and endpoint, {@code host:port}. Nodes are named by endpoint, never by host name alone,
 * because several NodeManagers of a mini cluster share one host.
 */
public final class NodeAddress {
    private final String host;
    private final int port;

    public NodeAddress(String host, int port) {
        if (host == null || host.isEmpty() || port <= 0 || port > 65535) {
            throw new IllegalArgumentException("node address needs a host and a port in [1, 65535], got " + host + ":"
                    + port);
        }
        this.host = host;
        this.port = port;
    }

    public static NodeAddress parse(String id) {
        int colon = id == null ? -1 : id.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("node id must be host:port, got " + id);
        }
        try {
            return new NodeAddress(id.substring(0, colon), Integer.parseInt(id.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("node id must be host:port, got " + id, e);
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String id() {
        return host + ":" + port;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeAddress && ((NodeAddress) o).host.equals(host) && ((NodeAddress) o).port == port;
    }

    @Override
    public int hashCode() {
        return host.hashCode() * 31 + port;
    }

    @Override
    public String toString() {
        return id();
    }
}
