package io.courier.bench.netemu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The emulated network as set up by {@code bench/netemu/netemu.sh}: reads its counters from the root namespace
 * ({@code ip netns exec} for tc and nstat, {@code /proc/<agent pid>/net/tcp} for connections). Immutable; any
 * thread.
 */
final class Testbed {
    private final String prefix;
    private final String subnet;
    private final int hosts;

    Testbed(String prefix, String subnet, int hosts) {
        this.prefix = prefix;
        this.subnet = subnet;
        this.hosts = hosts;
    }

    int hosts() {
        return hosts;
    }

    String subnet() {
        return subnet;
    }

    String ip(int host) {
        return subnet + "." + host;
    }

    String hostNs(int host) {
        return prefix + "h" + host;
    }

    /** Root qdisc counters of every switch port (p1..pN). */
    TcQdiscStats switchPorts() throws IOException {
        return TcQdiscStats.parse(exec("ip", "netns", "exec", prefix + "sw", "tc", "-s", "-j", "qdisc", "show"))
                .portsOnly();
    }

    /** Root qdisc counters of host {@code h}'s NIC (should never drop). */
    TcQdiscStats hostNic(int h) throws IOException {
        return TcQdiscStats.parse(exec("ip", "netns", "exec", hostNs(h), "tc", "-s", "-j", "qdisc", "show", "dev",
                "eth0"), "eth0");
    }

    NstatCounters nstat(int h) throws IOException {
        return NstatCounters.parse(exec("ip", "netns", "exec", hostNs(h), "nstat", "-asz"));
    }

    /** Host {@code h}'s open connections to other hosts, read through a process of its namespace. */
    TcpConnections connections(int h, long pidInNamespace, java.util.Set<Integer> ignoredPorts,
            java.util.Set<Integer> countedPorts) throws IOException {
        String text = Files.readString(Path.of("/proc/" + pidInNamespace + "/net/tcp"), StandardCharsets.US_ASCII);
        return TcpConnections.parse(text, ip(h), subnet, ignoredPorts, countedPorts);
    }

    static CpuTimes cpu() throws IOException {
        return CpuTimes.parse(Files.readString(Path.of("/proc/stat"), StandardCharsets.US_ASCII));
    }

    static double loadavg1() throws IOException {
        return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
    }

    /** CPU ticks used so far by the given processes (gone processes count 0). */
    static long ticksOf(List<Long> pids) {
        long t = 0;
        for (long pid : pids) {
            try {
                t += CpuTimes.processTicks(Files.readString(Path.of("/proc/" + pid + "/stat")));
            } catch (IOException e) {
                // exited: nothing more to count
            }
        }
        return t;
    }

    /** CPU ticks used so far by each of the given processes, in order (a gone process counts 0). */
    static long[] ticksEach(List<Long> pids) {
        long[] t = new long[pids.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = ticksOf(List.of(pids.get(i)));
        }
        return t;
    }

    /** Runs a command, returns its stdout; a non-zero exit or a 30 s hang is an error naming the command. */
    static String exec(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        byte[] out;
        byte[] err;
        try {
            out = p.getInputStream().readAllBytes();
            err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + ": no exit after 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", cmd) + ": interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + ": exit " + p.exitValue() + ": "
                    + new String(err, StandardCharsets.UTF_8).trim());
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    List<Integer> hostList() {
        List<Integer> l = new ArrayList<>();
        for (int h = 1; h <= hosts; h++) {
            l.add(h);
        }
        return l;
    }
}
