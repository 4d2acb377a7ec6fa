package io.courier.shuffle.service;

/**
 * How any node's proxy port follows from that node's shuffle port. Reducers learn remote nodes only as
 * {@code http://host:shufflePort} from map-completion events, so the cluster shares one rule: either a fixed
 * port on every node ({@code courier.proxy.port} &gt; 0, like {@code mapreduce.shuffle.port}), or the shuffle
 * port plus a fixed offset ({@code courier.proxy.port = -1}, {@code courier.proxy.port-offset}), which also
 * works when shuffle ports are ephemeral (mini clusters). The handler enforces the rule when it binds, and
 * advertises it in its service metadata so that tasks need no configuration of their own. Immutable.
 */
public final class ProxyPortRule {
    /** Value of {@code courier.proxy.port} that selects the offset rule. */
    public static final int OFFSET_MODE = -1;

    private static final int FIXED = 0;
    private static final int OFFSET = 1;

    private final int kind;
    private final int value;

    private ProxyPortRule(int kind, int value) {
        this.kind = kind;
        this.value = value;
    }

    /** Every proxy listens on {@code port}. */
    public static ProxyPortRule fixed(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("courier.proxy.port must be a TCP port in 1..65535 (or -1 for"
                    + " shuffle port + offset), got " + port);
        }
        return new ProxyPortRule(FIXED, port);
    }

    /** Every proxy listens on its node's shuffle port plus {@code offset}. */
    public static ProxyPortRule offset(int offset) {
        if (offset < 1 || offset > 1000) {
            throw new IllegalArgumentException("courier.proxy.port-offset must be in 1..1000, got " + offset);
        }
        return new ProxyPortRule(OFFSET, offset);
    }

    /** The rule for {@code courier.proxy.port} and {@code courier.proxy.port-offset}. */
    public static ProxyPortRule of(int proxyPort, int offset) {
        return proxyPort == OFFSET_MODE ? offset(offset) : fixed(proxyPort);
    }

    /** The proxy port of the node whose shuffle port is {@code shufflePort}. */
    public int proxyPortFor(int shufflePort) {
        if (kind == FIXED) {
            return value;
        }
        int p = shufflePort + value;
        if (shufflePort < 1 || p > 65535) {
            throw new IllegalArgumentException("shuffle port " + shufflePort + " + courier.proxy.port-offset "
                    + value + " is not a TCP port");
        }
        return p;
    }

    /** True when the proxy port is the shuffle port plus an offset. */
    public boolean isOffset() {
        return kind == OFFSET;
    }

    int kind() {
        return kind;
    }

    int value() {
        return value;
    }

    static ProxyPortRule decode(int kind, int value) {
        if (kind == FIXED) {
            return fixed(value);
        }
        if (kind == OFFSET) {
            return offset(value);
        }
        throw new IllegalArgumentException("unknown proxy port rule kind " + kind);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProxyPortRule && ((ProxyPortRule) o).kind == kind && ((ProxyPortRule) o).value == value;
    }

    @Override
    public int hashCode() {
        return 31 * kind + value;
    }

    @Override
    public String toString() {
        return kind == FIXED ? "port " + value : "shuffle port + " + value;
    }
}
