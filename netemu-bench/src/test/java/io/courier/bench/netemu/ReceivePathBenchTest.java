package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The loopback receive-path benchmark end to end, tiny: both modes fetch every byte of two segment sizes, and the
 * CPU lands in each mode's own roles (stock's fetchers, never a relay reader; Courier's relay reader and proxy).
 * Needs the fixed shuffle ports 13562/13563 free (skipped otherwise) and /proc (Linux).
 */
@Timeout(120)
class ReceivePathBenchTest {
    @TempDir
    File tmp;

    @Test
    void bothModesReceiveEverySegmentAndTheirCpuLandsInTheirRoles() throws Exception {
        assumeTrue(ReceivePathBench.portFree(BenchIds.SHUFFLE_PORT)
                && ReceivePathBench.portFree(BenchIds.SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET),
                "ports 13562/13563 in use on this machine");
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc");
        Path socket = tmp.toPath().resolve("agent.sock");
        HostAgent host = new HostAgent(1, "127.0.0.1", null, socket, new File(tmp, "h1"));
        Thread t = new Thread(() -> {
            try {
                host.serve();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "agent");
        t.start();
        AgentClient client = ReceivePathBench.awaitAgent(socket, 60_000);
        List<ReceiveRun> sunk = new ArrayList<>();
        List<ReceiveRun> runs;
        try {
            // Sampled every millisecond: a tiny run's fetchers and relay reader live a few tens of milliseconds, so
            // one in the benchmark's 20 ms period may end unseen (its CPU then stays unattributed, not in its role).
            // On a loaded 2-core machine a sample can still come 10 ms late; eight maps per reducer keep the
            // threads alive across several samples.
            runs = new ReceivePathBench(client, ProcessHandle.current().pid(), 2, 8, 2,
                    List.of(Mode.STOCK, Mode.COURIER), 1).runAll(new long[] {4096, 65536}, 1, 0, sunk::add);
        } finally {
            client.call(AgentMessages.Request.simple(AgentMessages.Op.QUIT));
            t.join(30_000);
        }
        assertEquals(4, runs.size());
        assertEquals(runs, sunk);
        for (ReceiveRun r : runs) {
            assertEquals(16, r.segments(), "2 reducers x 8 maps");
            assertTrue(r.bytes() >= 4 * r.segmentBytes(), r + ": every byte of every segment");
            if (r.mode().equals("stock")) {
                assertEquals(0.0, r.roles().of(ThreadRole.RELAY_READER), r.toString());
            } else {
                assertTrue(r.roles().of(ThreadRole.PROXY_IO) > 0, r.toString());
            }
            assertTrue(r.processCpuSec() > 0, r.toString());
        }
        // The short-lived receive threads, over both sizes of a mode: one run's may still end between two samples.
        assertTrue(roleSum(runs, "stock", ThreadRole.FETCH_WORKERS) > 0, runs.toString());
        assertTrue(roleSum(runs, "courier", ThreadRole.RELAY_READER) > 0, runs.toString());
        String md = ReceiveReport.markdown(new LinkedHashMap<>(), runs);
        assertTrue(md.contains("| stock | 64 KB | 1 |"), md);
        assertTrue(md.contains("| courier | 4 KB | 1 |"), md);
        Path csv = tmp.toPath().resolve("runs.csv");
        for (ReceiveRun r : runs) {
            ReceiveReport.appendCsv(csv, r);
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(5, lines.size(), "header and four runs");
        assertTrue(lines.get(0).startsWith("mode,segment_bytes,repeat,reducers,segments,bytes,wall_s,process_cpu_s"),
                lines.get(0));
    }

    private static double roleSum(List<ReceiveRun> runs, String mode, ThreadRole role) {
        return runs.stream().filter(r -> r.mode().equals(mode)).mapToDouble(r -> r.roles().of(role)).sum();
    }
}
