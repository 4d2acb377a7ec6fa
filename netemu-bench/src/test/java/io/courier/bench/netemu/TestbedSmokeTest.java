package io.courier.bench.netemu;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * bench/netemu/netemu.sh on the real kernel: a 2-host testbed (its own prefix, subnets and state directory, so a
 * benchmark running on the machine is not touched), one small TCP transfer through the shaped switch port, then
 * teardown, which must leave nothing behind: no namespaces or links of the prefix (the management bridge included), the allowed congestion-control
 * list as before, no state directory, and the process started inside a namespace gone. Needs root, ip netns and
 * python3 (the transfer); skipped with the reason otherwise.
 */
@Timeout(60)
class TestbedSmokeTest {
    static final String PREFIX = "cnt-";
    static final Path SCRIPT = Path.of("..", "bench", "netemu", "netemu.sh").toAbsolutePath().normalize();
    static final String STATE = "/run/courier-netemu-smoke";
    static final String CC_FILE = "/proc/sys/net/ipv4/tcp_allowed_congestion_control";

    private boolean setUp;

    private static Map<String, String> env() {
        Map<String, String> e = new HashMap<>();
        e.put("N", "2");
        e.put("PREFIX", PREFIX);
        e.put("SUBNET", "10.202.0");
        e.put("MGMT_SUBNET", "10.212.0");
        e.put("STATE_DIR", STATE);
        return e;
    }

    /** Runs a command; returns stdout; fails the test with stderr on a non-zero exit. */
    static String run(Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        File err = File.createTempFile("netemu-smoke", ".err");
        pb.redirectError(err);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(45, TimeUnit.SECONDS), String.join(" ", cmd) + " did not finish");
        String e = Files.readString(err.toPath());
        Files.delete(err.toPath());
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " failed: " + e);
        return out;
    }

    static boolean available(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (setUp) {
            run(env(), SCRIPT.toString(), "teardown");
        }
    }

    @Test
    void setupTransferTeardownLeavesNothingBehind() throws Exception {
        assumeTrue(available("id", "-u") && run(Map.of(), "id", "-u").trim().equals("0"),
                "netemu smoke test skipped: needs root (network namespaces, tc, sysctl)");
        assumeTrue(available("ip", "netns", "list"), "netemu smoke test skipped: 'ip netns' is not available");
        assumeTrue(available("python3", "-c", "pass"), "netemu smoke test skipped: python3 (the transfer) missing");
        assumeTrue(!run(Map.of(), "ip", "netns", "list").contains(PREFIX),
                "netemu smoke test skipped: " + PREFIX + "* namespaces exist (another smoke test running?)");
        String ccBefore = Files.readString(Path.of(CC_FILE)).trim();

        setUp = true;
        run(env(), SCRIPT.toString(), "setup");
        String nss = run(Map.of(), "ip", "netns", "list");
        for (String ns : new String[] {"cnt-sw", "cnt-h1", "cnt-h2"}) {
            assertTrue(nss.contains(ns), ns + " missing: " + nss);
        }
        assertTrue(Files.readString(Path.of(CC_FILE)).contains("cubic"), "cubic allowed while set up");
        String qd = run(Map.of(), "ip", "netns", "exec", "cnt-sw", "tc", "qdisc", "show", "dev", "p2");
        assertTrue(qd.contains("htb") && qd.contains("bfifo") && qd.contains("limit 225000b"), qd);
        assertTrue(run(Map.of(), "ip", "netns", "exec", "cnt-h1", "sysctl", "-n", "net.ipv4.tcp_congestion_control")
                .contains("cubic"));
        // The management network: mgmt0 in each host namespace, a root-namespace bridge, no shaping of ours.
        assertTrue(run(Map.of(), "ip", "-n", "cnt-h2", "-o", "addr", "show", "dev", "mgmt0").contains("10.212.0.2/24"));
        assertTrue(run(Map.of(), "ip", "-o", "addr", "show", "dev", "cnt-mg").contains("10.212.0.254/24"));
        assertFalse(run(Map.of(), "ip", "netns", "exec", "cnt-h2", "tc", "qdisc", "show", "dev", "mgmt0")
                .contains("htb"), "management interface unshaped");

        // A long-lived process inside a namespace: teardown must stop it.
        ProcessBuilder pb = new ProcessBuilder("ip", "netns", "exec", "cnt-h2", "sleep", "600");
        Process sleeper = pb.start();
        long sleeperPid = sleeper.pid();

        // One small transfer h1 -> h2 (64 KB) through the switch.
        TcQdiscStats before = TcQdiscStats.parse(run(Map.of(), "ip", "netns", "exec", "cnt-sw", "tc", "-s", "-j",
                "qdisc", "show")).portsOnly();
        Process server = new ProcessBuilder("ip", "netns", "exec", "cnt-h2", "python3", "-c",
                "import socket\ns=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                        + "s.bind(('10.202.0.2', 5099)); s.listen(1); print('L', flush=True)\nc,_=s.accept(); n=0\n"
                        + "while True:\n    b=c.recv(65536)\n    if not b: break\n    n+=len(b)\nprint(n)")
                .start();
        java.io.BufferedReader sout = new java.io.BufferedReader(new java.io.InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
        assertEquals("L", sout.readLine(), "server listening");
        run(Map.of(), "ip", "netns", "exec", "cnt-h1", "python3", "-c",
                "import socket\ns=socket.create_connection(('10.202.0.2', 5099), timeout=20)\n"
                        + "s.sendall(b'x'*65536); s.close()");
        assertEquals("65536", sout.readLine(), "bytes received by h2");
        assertTrue(server.waitFor(10, TimeUnit.SECONDS));
        TcQdiscStats d = TcQdiscStats.parse(run(Map.of(), "ip", "netns", "exec", "cnt-sw", "tc", "-s", "-j", "qdisc",
                "show")).portsOnly().minus(before);
        assertTrue(d.ports().get("p2").packets() >= 65536 / 1448,
                "the data went through switch port p2 in MTU-sized packets (offloads off): " + d);
        assertTrue(d.ports().get("p2").bytes() < 65536 * 2, "p2 carried the transfer once: " + d);

        run(env(), SCRIPT.toString(), "teardown");
        setUp = false;
        assertFalse(run(Map.of(), "ip", "netns", "list").contains(PREFIX), "namespaces left");
        assertFalse(run(Map.of(), "ip", "-o", "link", "show").contains(PREFIX), "links left");
        assertEquals(ccBefore, Files.readString(Path.of(CC_FILE)).trim(), "allowed CC restored");
        assertFalse(Files.exists(Path.of(STATE)), "state directory left");
        assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS), "process inside the namespace stopped");
        assertFalse(ProcessHandle.of(sleeperPid).map(ProcessHandle::isAlive).orElse(false));
        // Idempotent: a second teardown is harmless.
        run(env(), SCRIPT.toString(), "teardown");
    }

    /**
     * Both harness scripts check the driver's options before they build anything: a wrong option exits 2 with the
     * driver's one-line message, and no namespace, state directory or report directory is created.
     */
    @Test
    void aWrongOptionStopsTheHarnessesBeforeTheyBuildAnything() throws Exception {
        assumeTrue(available("id", "-u") && run(Map.of(), "id", "-u").trim().equals("0"),
                "netemu option check skipped: the harness scripts need root");
        assumeTrue(available("ip", "netns", "list"), "netemu option check skipped: 'ip netns' is not available");
        Path out = Files.createTempDirectory("netemu-options").resolve("report");
        Map<String, String> e = env();
        e.put("CP", System.getProperty("java.class.path"));
        e.put("OUT", out.toString());
        String[][] cases = {
            {SCRIPT.toString(), "bench", "--families", "small,smal"},
            {SCRIPT.resolveSibling("yarn-cluster.sh").toString(), "bench", "--reduces", "0"},
        };
        String[] says = {"bin/courier bench netemu: unknown family 'smal' in --families",
            "bin/courier bench netemu-yarn: --reduces must be at least 1, got 0"};
        for (int i = 0; i < cases.length; i++) {
            ProcessBuilder pb = new ProcessBuilder(cases[i]);
            pb.environment().putAll(e);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(45, TimeUnit.SECONDS), String.join(" ", cases[i]) + " did not finish");
            assertEquals(2, p.exitValue(), String.join(" ", cases[i]) + ": " + err);
            assertTrue(err.contains(says[i]), err);
            assertFalse(run(Map.of(), "ip", "netns", "list").contains(PREFIX), "namespaces built: " + err);
            assertFalse(Files.exists(Path.of(STATE)), "state directory created");
            assertFalse(Files.exists(out), "report directory created");
        }
    }
}
