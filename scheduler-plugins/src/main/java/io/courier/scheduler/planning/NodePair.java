package io.courier.scheduler.planning;

/**
 * A source→destination node pair: the unit Courier merges flows on. Nodes are named by whatever the
 * driver uses as identity (an endpoint {@code host:port} in a cluster, a host name in the simulator).
 */
public final class NodePair {
    private final String src;
    private final String dst;

    public NodePair(String src, String dst) {
        if (src == null || dst == null || src.isEmpty() || dst.isEmpty()) {
            throw new IllegalArgumentException("node pair needs two non-empty node names, got " + src + "->" + dst);
        }
        this.src = src;
        this.dst = dst;
    }

    public String src() {
        return src;
    }

    public String dst() {
        return dst;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodePair && ((NodePair) o).src.equals(src) && ((NodePair) o).dst.equals(dst);
    }

    @Override
    public int hashCode() {
        return src.hashCode() * 31 + dst.hashCode();
    }

    @Override
    public String toString() {
        return src + "->" + dst;
    }
}
