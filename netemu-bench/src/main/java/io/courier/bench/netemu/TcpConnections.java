package io.courier.bench.netemu;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The open TCP connections of one emulated host toward other hosts, from its namespace's {@code /proc/net/tcp}
 * (what {@code ss -tn} reads; the file of any process in the namespace, read from the root namespace, costs no
 * process start, so it can be sampled every few milliseconds). Connections to the host itself and loopback do
 * not cross the switch and are not counted; LISTEN, TIME_WAIT and half-closed idle sockets are not flows.
 * {@code onPorts} and {@code onPortsByPeer} count the subset with a local or remote port in the set the caller
 * names (a shuffle service's port: its connections among everything else a host keeps open). Immutable.
 */
record TcpConnections(int total, Map<String, Integer> byPeer, int onPorts, Map<String, Integer> onPortsByPeer) {
    /**
     * /proc/net/tcp states counted: ESTABLISHED, SYN_SENT, SYN_RECV and FIN_WAIT1 (a server that closed after
     * writing still has data in flight). Not CLOSE_WAIT/LAST_ACK/CLOSING: the JDK's HTTP keep-alive cache holds
     * sockets the server has closed in CLOSE_WAIT for seconds after their fetch ended, and they carry nothing.
     */
    private static final String OPEN_STATES = "01 02 03 04";

    /**
     * Counts the connections in {@code procNetTcp} whose peer is another host of {@code subnet} (e.g.
     * "10.201.0") than {@code ownIp}.
     *
     * @throws IOException naming the line, for text that is not /proc/net/tcp
     */
    static TcpConnections parse(String procNetTcp, String ownIp, String subnet) throws IOException {
        return parse(procNetTcp, ownIp, subnet, Set.of());
    }

    /**
     * As {@link #parse(String, String, String)}, not counting connections with a local or remote port in
     * {@code ignoredPorts}: another mode's idle connections (the other proxy's long-lived ones) are no flows of
     * this run.
     */
    static TcpConnections parse(String procNetTcp, String ownIp, String subnet, Set<Integer> ignoredPorts)
            throws IOException {
        return parse(procNetTcp, ownIp, subnet, ignoredPorts, Set.of());
    }

    /**
     * As {@link #parse(String, String, String, Set)}, also counting apart the connections with a local or remote
     * port in {@code countedPorts} ({@link #onPorts}, {@link #onPortsByPeer}).
     */
    static TcpConnections parse(String procNetTcp, String ownIp, String subnet, Set<Integer> ignoredPorts,
            Set<Integer> countedPorts) throws IOException {
        Map<String, Integer> peers = new TreeMap<>();
        Map<String, Integer> countedPeers = new TreeMap<>();
        int total = 0;
        int counted = 0;
        String[] lines = procNetTcp.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].trim();
            if (t.isEmpty() || t.startsWith("sl")) {
                continue;
            }
            String[] f = t.split("\\s+");
            if (f.length < 4 || !f[0].endsWith(":")) {
                throw new IOException("/proc/net/tcp line " + (i + 1) + " unreadable: '" + lines[i] + "'");
            }
            if (!OPEN_STATES.contains(f[3].toUpperCase()) || f[3].length() != 2) {
                continue;
            }
            String peer = ip(f[2], lines[i]);
            if (peer.equals(ownIp) || !peer.startsWith(subnet + ".")) {
                continue;
            }
            // Both ports parsed once: the sampler reads every host's table every 20 ms during a run.
            boolean byPort = !ignoredPorts.isEmpty() || !countedPorts.isEmpty();
            int local = byPort ? port(f[1], lines[i]) : -1;
            int remote = byPort ? port(f[2], lines[i]) : -1;
            if (ignoredPorts.contains(local) || ignoredPorts.contains(remote)) {
                continue;
            }
            peers.merge(peer, 1, Integer::sum);
            total++;
            if (countedPorts.contains(local) || countedPorts.contains(remote)) {
                countedPeers.merge(peer, 1, Integer::sum);
                counted++;
            }
        }
        return new TcpConnections(total, Map.copyOf(peers), counted, Map.copyOf(countedPeers));
    }

    /** "0100C90A:3562" (little-endian IPv4, hex port) to "10.201.0.1". */
    static String ip(String hexAddrPort, String line) throws IOException {
        int colon = hexAddrPort.indexOf(':');
        if (colon != 8) {
            throw new IOException("/proc/net/tcp: not an IPv4 address '" + hexAddrPort + "' in '" + line + "'");
        }
        try {
            long a = Long.parseLong(hexAddrPort.substring(0, 8), 16);
            return (a & 0xff) + "." + ((a >> 8) & 0xff) + "." + ((a >> 16) & 0xff) + "." + ((a >> 24) & 0xff);
        } catch (NumberFormatException e) {
            throw new IOException("/proc/net/tcp: bad address '" + hexAddrPort + "' in '" + line + "'");
        }
    }

    /** "0100C90A:34FA" to 13562. */
    static int port(String hexAddrPort, String line) throws IOException {
        int colon = hexAddrPort.indexOf(':');
        try {
            return Integer.parseInt(hexAddrPort.substring(colon + 1), 16);
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IOException("/proc/net/tcp: bad port in '" + hexAddrPort + "' of '" + line + "'");
        }
    }

    int maxPerPeer() {
        return max(byPeer);
    }

    /** The most connections on the counted ports toward one peer. */
    int maxPerPeerOnPorts() {
        return max(onPortsByPeer);
    }

    private static int max(Map<String, Integer> byPeer) {
        int m = 0;
        for (int n : byPeer.values()) {
            m = Math.max(m, n);
        }
        return m;
    }
}
