package io.courier.shuffle.service;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The {@code mapreduce_shuffle} service metadata of a node running {@code CourierShuffleHandler}: the shuffle port
 * first (the MR ApplicationMaster reads only that int), then a magic, a version, this node's proxy port, the
 * cluster's {@link ProxyPortRule} and (from version 2) the path of the relay's domain socket, as a length and UTF-8
 * bytes (length 0: none, tasks connect over loopback TCP). Version 1 is still read. Reducers decode it from
 * {@code NM_AUX_SERVICE_mapreduce_shuffle}; the container environment carries the whole backing array of the
 * buffer, so {@link #encode()} returns an exact-size array and {@link #decode} ignores trailing bytes. Immutable.
 */
public final class ServiceMetadata {
    /** "CRR1": marks metadata written by Courier (stock ShuffleHandler writes the port alone). */
    static final int MAGIC = 0x43525231;
    static final int VERSION = 2;
    /** The fixed part: shuffle port, magic, version, proxy port, rule (two ints). */
    private static final int FIXED = 6 * 4;
    /** A socket path longer than this is not a socket path (Linux allows 107 bytes). */
    private static final int MAX_SOCKET_BYTES = 4096;

    private final int shufflePort;
    private final int proxyPort;
    private final ProxyPortRule rule;
    private final String relaySocket;

    public ServiceMetadata(int shufflePort, int proxyPort, ProxyPortRule rule) {
        this(shufflePort, proxyPort, rule, null);
    }

    /** @param relaySocket the relay's domain socket path, or null when the proxy has none */
    public ServiceMetadata(int shufflePort, int proxyPort, ProxyPortRule rule, String relaySocket) {
        if (shufflePort < 1 || shufflePort > 65535 || proxyPort < 1 || proxyPort > 65535) {
            throw new IllegalArgumentException("ports must be in 1..65535: shuffle " + shufflePort + ", proxy "
                    + proxyPort);
        }
        this.shufflePort = shufflePort;
        this.proxyPort = proxyPort;
        this.rule = rule;
        this.relaySocket = relaySocket == null || relaySocket.isEmpty() ? null : relaySocket;
    }

    /** The path of the relay's domain socket, or null when tasks reach the proxy over loopback TCP only. */
    public String relaySocket() {
        return relaySocket;
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
        byte[] path = relaySocket == null ? new byte[0] : relaySocket.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(FIXED + 4 + path.length);
        b.putInt(shufflePort).putInt(MAGIC).putInt(VERSION).putInt(proxyPort).putInt(rule.kind()).putInt(rule.value());
        b.putInt(path.length).put(path);
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
        if (b.remaining() < FIXED - 8) {
            throw new IllegalArgumentException("Courier service metadata truncated: " + (b.remaining() + 8)
                    + " bytes, need " + FIXED);
        }
        int version = b.getInt();
        if (version != 1 && version != VERSION) {
            throw new IllegalArgumentException("Courier service metadata version " + version + " not supported"
                    + " (this build reads versions 1 and " + VERSION + ")");
        }
        int proxyPort = b.getInt();
        ProxyPortRule rule = ProxyPortRule.decode(b.getInt(), b.getInt());
        String socket = null;
        if (version >= 2) {
            int n = b.remaining() >= 4 ? b.getInt() : -1;
            if (n < 0 || n > MAX_SOCKET_BYTES || n > b.remaining()) {
                throw new IllegalArgumentException("Courier service metadata version 2 truncated or corrupt: relay"
                        + " socket path of " + n + " bytes, " + b.remaining() + " left");
            }
            byte[] path = new byte[n];
            b.get(path);
            socket = new String(path, StandardCharsets.UTF_8);
        }
        return new ServiceMetadata(shufflePort, proxyPort, rule, socket);
    }

    @Override
    public String toString() {
        return "shuffle port " + shufflePort + ", proxy port " + proxyPort + " (rule: " + rule + ")"
                + (relaySocket == null ? "" : ", relay socket " + relaySocket);
    }
}
