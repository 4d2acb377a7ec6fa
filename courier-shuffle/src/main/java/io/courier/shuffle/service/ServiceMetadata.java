package io.courier.shuffle.service;

import java.nio.ByteBuffer;

/**
 * The {@code mapreduce_shuffle} service metadata of a node running {@code CourierShuffleHandler}: the shuffle
 * port first (the MR ApplicationMaster reads only that int), then a magic, a version, this node's proxy
 * port and the cluster's {@link ProxyPortRule}. Reducers decode it from {@code NM_AUX_SERVICE_mapreduce_shuffle};
 * the container environment carries the whole backing array of the buffer, so {@link #encode()} returns an
 * exact-size array and {@link #decode} ignores trailing bytes. Immutable.
 */
public final class ServiceMetadata {
    /** "CRR1": marks metadata written by Courier (stock ShuffleHandler writes the port alone). */
    static final int MAGIC = 0x43525231;
    static final int VERSION = 1;
    private static final int LENGTH = 6 * 4;

    private final int shufflePort;
    private final int proxyPort;
    private final ProxyPortRule rule;

    public ServiceMetadata(int shufflePort, int proxyPort, ProxyPortRule rule) {
        if (shufflePort < 1 || shufflePort > 65535 || proxyPort < 1 || proxyPort > 65535) {
            throw new IllegalArgumentException("ports must be in 1..65535: shuffle " + shufflePort + ", proxy "
                    + proxyPort);
        }
        this.shufflePort = shufflePort;
        this.proxyPort = proxyPort;
        this.rule = rule;
    }

    public int shufflePort() {
        return shufflePort;
    }

    public int proxyPort() {
        return proxyPort;
    }

    public ProxyPortRule rule() {
        return rule;
    }

    /** An array-backed buffer of exactly the encoded bytes. */
    public ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putInt(shufflePort).putInt(MAGIC).putInt(VERSION).putInt(proxyPort).putInt(rule.kind()).putInt(rule.value());
        b.flip();
        return b;
    }

    /**
     * The Courier metadata in {@code data} (read from its position, which is not moved), or null when the node
     * runs a plain ShuffleHandler (only a port, or no Courier magic after it).
     *
     * @throws IllegalArgumentException when the magic is there but the rest is not understood
     */
    public static ServiceMetadata decode(ByteBuffer data) {
        ByteBuffer b = data.duplicate();
        if (b.remaining() < 8) {
            return null;
        }
        int shufflePort = b.getInt();
        if (b.getInt() != MAGIC) {
            return null;
        }
        if (b.remaining() < LENGTH - 8) {
            throw new IllegalArgumentException("Courier service metadata truncated: " + (b.remaining() + 8)
                    + " bytes, need " + LENGTH);
        }
        int version = b.getInt();
        if (version != VERSION) {
            throw new IllegalArgumentException("Courier service metadata version " + version + " not supported"
                    + " (this build reads version " + VERSION + ")");
        }
        int proxyPort = b.getInt();
        ProxyPortRule rule = ProxyPortRule.decode(b.getInt(), b.getInt());
        return new ServiceMetadata(shufflePort, proxyPort, rule);
    }

    @Override
    public String toString() {
        return "shuffle port " + shufflePort + ", proxy port " + proxyPort + " (rule: " + rule + ")";
    }
}
