package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metric parsers on output captured from a real testbed run (3 hosts, 50 Mbit/s, a stock run of 20 reducers x
 * 5 fetches in flight; files under src/test/resources/netemu).
 */
@Timeout(30)
class MetricParsersTest {
    static String resource(String name) throws IOException {
        try (InputStream in = MetricParsersTest.class.getResourceAsStream("/netemu/" + name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void switchQdiscsGiveRootCountersPerPort() throws IOException {
        TcQdiscStats all = TcQdiscStats.parse(resource("tc-switch.json"));
        assertEquals(Set5.of("br0", "lo", "p1", "p2", "p3"), all.ports().keySet(), "root qdiscs only");
        TcQdiscStats ports = all.portsOnly();
        assertEquals(Set5.of("p1", "p2", "p3"), ports.ports().keySet());
        assertEquals("htb", ports.ports().get("p1").kind());
        assertEquals(7303, ports.ports().get("p1").packets());
        assertEquals(5830496, ports.ports().get("p1").bytes());
        assertEquals(0, ports.totalDrops());
        assertEquals(7303 + 7308 + 6754, ports.totalPackets());
    }

    @Test
    void hostNicOutputWithoutDeviceNameUsesTheGivenOne() throws IOException {
        TcQdiscStats nic = TcQdiscStats.parse(resource("tc-host-eth0.json"), "eth0");
        assertEquals(Set5.of("eth0"), nic.ports().keySet());
        assertEquals(6878, nic.ports().get("eth0").packets());
        assertThrows(IOException.class, () -> TcQdiscStats.parse(resource("tc-host-eth0.json")),
                "a root qdisc without a device name is refused when none is given");
    }

    @Test
    void deltasSubtractPerPort() throws IOException {
        TcQdiscStats after = TcQdiscStats.parse("[{\"kind\":\"htb\",\"dev\":\"p1\",\"root\":true,\"bytes\":900,"
                + "\"packets\":30,\"drops\":7,\"overlimits\":2}]");
        TcQdiscStats before = TcQdiscStats.parse("[{\"kind\":\"htb\",\"dev\":\"p1\",\"root\":true,\"bytes\":100,"
                + "\"packets\":10,\"drops\":2,\"overlimits\":1}]");
        TcQdiscStats d = after.minus(before);
        assertEquals(5, d.totalDrops());
        assertEquals(20, d.totalPackets());
    }

    @Test
    void tcWithoutStatisticsIsRefused() {
        IOException e = assertThrows(IOException.class, () -> TcQdiscStats.parse(
                "[{\"kind\":\"htb\",\"dev\":\"p1\",\"root\":true}]"));
        assertTrue(e.getMessage().contains("-s"), e.getMessage());
        assertThrows(IOException.class, () -> TcQdiscStats.parse("qdisc htb 1: dev p1 root"));
    }

    @Test
    void nstatCountersAndDeltas() throws IOException {
        NstatCounters n = NstatCounters.parse(resource("nstat-asz.txt"));
        assertEquals(31, n.get(NstatCounters.RETRANS_SEGS));
        assertEquals(0, n.get(NstatCounters.TIMEOUTS));
        assertEquals(0, n.get(NstatCounters.SYN_RETRANS));
        assertEquals(163, n.get(NstatCounters.ACTIVE_OPENS));
        assertEquals(57, n.get(NstatCounters.LOSS_PROBES));
        assertEquals(8640, n.get(NstatCounters.OUT_SEGS));
        assertEquals(0, n.get("NoSuchCounter"), "absent counters read as 0 (nstat -z prints zeros anyway)");
        NstatCounters before = NstatCounters.parse("#kernel\nTcpRetransSegs 11 0.0\nTcpActiveOpens 100 0.0\n");
        NstatCounters d = n.minus(before);
        assertEquals(20, d.get(NstatCounters.RETRANS_SEGS));
        assertEquals(63, d.get(NstatCounters.ACTIVE_OPENS));
        assertThrows(IOException.class, () -> NstatCounters.parse("#kernel\nTcpRetransSegs many 0.0\n"));
        assertThrows(IOException.class, () -> NstatCounters.parse("#kernel\n"));
    }

    @Test
    void procNetTcpCountsConnectionsToOtherHosts() throws IOException {
        // Captured in host 1 during a stock run: 40 ESTABLISHED fetch connections served to hosts 2 and 3,
        // plus the two LISTEN sockets (shuffle 13562, proxy 13563).
        TcpConnections c = TcpConnections.parse(resource("proc-net-tcp-stock.txt"), "10.201.0.1", "10.201.0");
        assertEquals(40, c.total());
        assertEquals(Map.of("10.201.0.2", 20, "10.201.0.3", 20), c.byPeer());
        assertEquals(20, c.maxPerPeer());
        // Seen from host 3, connections to 10.201.0.3 are its own and do not count... but this file is host 1's:
        // asking as host 3 drops the 20 to 10.201.0.3.
        assertEquals(20, TcpConnections.parse(resource("proc-net-tcp-stock.txt"), "10.201.0.3", "10.201.0").total());
        assertEquals(0, TcpConnections.parse(resource("proc-net-tcp-stock.txt"), "10.201.0.1", "10.99.0").total());
    }

    @Test
    void procNetTcpCountsTheShufflePortsConnectionsApart() throws IOException {
        // A real cluster's host: the shuffle among HDFS (9866 = 0x2692) and RPC (8020 = 0x1F54) connections.
        String text = "  sl  local_address rem_address   st tx_queue rx_queue\n"
                + "   0: 0100C90A:34FB 0200C90A:D000 01 0:0\n"      // served by the proxy (13563) to host 2
                + "   1: 0100C90A:D001 0300C90A:34FB 01 0:0\n"      // to host 3's proxy
                + "   2: 0100C90A:D002 0200C90A:2692 01 0:0\n"      // HDFS read from host 2's DataNode
                + "   3: 0100C90A:D003 0200C90A:2692 01 0:0\n"      // another
                + "   4: 0100C90A:D004 0300C90A:1F54 01 0:0\n"      // RPC to the NameNode on host 3
                + "   5: 0100C90A:34FA 0200C90A:D005 01 0:0\n"      // a stock fetch (13562) from host 2
                + "   6: 0100C90A:D006 0200C90A:34FB 06 0:0\n";     // TIME_WAIT on the proxy port: not counted
        TcpConnections c = TcpConnections.parse(text, "10.201.0.1", "10.201.0", java.util.Set.of(),
                java.util.Set.of(Mode.COURIER.servicePort()));
        assertEquals(6, c.total());
        assertEquals(4, c.maxPerPeer());
        assertEquals(2, c.onPorts());
        assertEquals(Map.of("10.201.0.2", 1, "10.201.0.3", 1), c.onPortsByPeer());
        assertEquals(1, c.maxPerPeerOnPorts());
        TcpConnections stock = TcpConnections.parse(text, "10.201.0.1", "10.201.0", java.util.Set.of(),
                java.util.Set.of(Mode.STOCK.servicePort()));
        assertEquals(1, stock.onPorts());
        assertEquals(Map.of("10.201.0.2", 1), stock.onPortsByPeer());
        // Without ports named, nothing is counted apart.
        assertEquals(0, TcpConnections.parse(text, "10.201.0.1", "10.201.0").onPorts());
    }

    @Test
    void procNetTcpSkipsListenTimeWaitAndLoopback() throws IOException {
        String text = "  sl  local_address rem_address   st tx_queue rx_queue\n"
                + "   0: 0100C90A:34FA 0200C90A:D000 01 0:0\n"      // established to host 2: counts
                + "   1: 0100C90A:34FA 0200C90A:D001 06 0:0\n"      // TIME_WAIT: not in flight
                + "   2: 00000000:34FA 00000000:0000 0A 0:0\n"      // LISTEN
                + "   3: 0100007F:34FB 0100007F:D002 01 0:0\n"      // loopback relay
                + "   4: 0100C90A:D003 0300C90A:34FA 02 0:0\n"     // SYN_SENT to host 3: counts
                + "   5: 0100C90A:D004 0300C90A:34FA 08 0:0\n"     // CLOSE_WAIT (JDK keep-alive cache): idle
                + "   6: 0100C90A:34FA 0400C90A:D005 04 0:0\n";    // FIN_WAIT1: server closed, data in flight
        TcpConnections c = TcpConnections.parse(text, "10.201.0.1", "10.201.0");
        assertEquals(3, c.total());
        assertEquals(Map.of("10.201.0.2", 1, "10.201.0.3", 1, "10.201.0.4", 1), c.byPeer());
        assertEquals("10.201.0.2", TcpConnections.ip("0200C90A:D000", "x"));
        assertThrows(IOException.class, () -> TcpConnections.parse("garbage line\n", "10.201.0.1", "10.201.0"));
        // Another mode's ports (0x34FA = 13562, the stock shuffle port) are left out, local or remote.
        TcpConnections courier = TcpConnections.parse(text, "10.201.0.1", "10.201.0", Mode.COURIER.foreignPorts());
        assertEquals(0, courier.total(), "a Courier run does not count stock's connections: " + courier);
        assertEquals(3, TcpConnections.parse(text, "10.201.0.1", "10.201.0", Mode.STOCK.foreignPorts()).total());
    }

    @Test
    void procStatGivesBusyAndSoftirqTicks() throws IOException {
        CpuTimes t = CpuTimes.parse(resource("proc-stat.txt"));
        // cpu  2731895 6 203019 813769 3885 0 17748 6851 0 0
        long total = 2731895L + 6 + 203019 + 813769 + 3885 + 0 + 17748 + 6851;
        assertEquals(total, t.total());
        assertEquals(total - 813769 - 3885, t.busy());
        assertEquals(17748, t.softirq());
        CpuTimes later = new CpuTimes(t.busy() + 100, t.softirq() + 50, t.total() + 200);
        assertEquals(1.0, later.busyCoresSince(t, 2), 1e-9);
        assertEquals(0.5, later.softirqCoresSince(t, 2), 1e-9);
        assertThrows(IOException.class, () -> CpuTimes.parse("intr 1 2 3\n"));
    }

    @Test
    void processTicksAreUtimePlusStime() throws IOException {
        // 22718 (java) S 1 ... utime 571 stime 90
        assertEquals(571 + 90, CpuTimes.processTicks(resource("proc-pid-stat.txt")));
        assertEquals(3 + 4, CpuTimes.processTicks("1 (a b) c) S 0 0 0 0 0 0 0 0 0 0 3 4 0 0"));
    }

    @Test
    void statsMinMedianMax() {
        double[] m = Stats.minMedMax(List.of(3.0, 1.0, 2.0, 10.0));
        assertEquals(1.0, m[0]);
        assertEquals(2.5, m[1]);
        assertEquals(10.0, m[2]);
        assertTrue(Double.isNaN(Stats.minMedMax(List.of())[1]));
    }

    /** Set literal helper (java.util.Set.of is fine at release 17; named to keep assertions readable). */
    static final class Set5 {
        static java.util.Set<String> of(String... s) {
            return java.util.Set.of(s);
        }
    }
}
