package io.courier.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code courier simulate} on tiny workloads, through the engine, in this JVM. */
class SimulateEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double MIB = 1048576.0;
    /** TraceWorkloads' default port capacity: 128 MiB/s. */
    private static final double C = 128 * MIB;

    @TempDir
    Path dir;

    private Path trace;

    /**
     * Four racks, three coflows. Coflow 1 (t = 0): one mapper in rack 0, 64 MB to rack 1. Coflow 2
     * (t = 0): one mapper in rack 2, 32 MB to rack 3. Coflow 3 (t = 1 s): one mapper in rack 0, 16 MB to
     * rack 3. The coflows never share a port while running under any work-conserving scheduler: coflow 1 ends
     * at 0.5 s, coflow 2 at 0.25 s, so coflow 3 finds its ports free and takes 0.125 s.
     */
    @BeforeEach
    void writeTrace() throws IOException {
        trace = dir.resolve("tiny.txt");
        Files.write(trace, ("4 3\n"
                + "1 0 1 0 1 1:64\n"
                + "2 0 1 2 1 3:32\n"
                + "3 1000 1 0 1 3:16\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Parses stdout as exactly one JSON value with nothing after it. */
    private static JsonNode singleObject(String stdout) throws IOException {
        try (JsonParser p = JSON.getFactory().createParser(stdout)) {
            JsonNode root = JSON.readTree(p);
            assertNull(p.nextToken(), "more than one JSON value on stdout:\n" + stdout);
            assertTrue(root.isObject(), stdout);
            return root;
        }
    }

    @Test
    void jsonOutputIsOneObjectWithExactCcts() throws IOException {
        CliRun r = CliRun.of("simulate", "--trace", trace.toString(), "-s", "fair,varys,aalo", "--format", "json",
                "-q");
        assertEquals(0, r.exit, r.toString());
        assertEquals("", r.err);
        JsonNode runs = singleObject(r.out).get("runs");
        assertEquals(3, runs.size());
        List<String> names = new ArrayList<>();
        for (JsonNode run : runs) {
            names.add(run.get("scheduler").asText());
            assertFalse(run.get("courier").asBoolean());
            assertEquals(3, run.get("coflows").asInt());
            // CCTs 0.5, 0.25, 0.125 s
            assertEquals((0.5 + 0.25 + 0.125) / 3, run.get("avgCct").asDouble(), 1e-9);
            assertEquals(0.25, run.get("p50Cct").asDouble(), 1e-9);
            assertEquals(0.5, run.get("p90Cct").asDouble(), 1e-9);
            assertEquals(0.5, run.get("p99Cct").asDouble(), 1e-9);
            assertEquals((0.5 + 0.25 + 0.125) / 3, run.get("avgWeightedCct").asDouble(), 1e-9);
            assertEquals(1.125, run.get("makespan").asDouble(), 1e-9);
            assertEquals(1, run.get("maxConcurrentFlowsPerPort").asInt());
            assertTrue(run.get("wallSeconds").asDouble() >= 0);
            // What the run cost, measured by the CLI: thread CPU time and the heap pools' peak.
            assertTrue(run.get("cpuSeconds").asDouble() >= 0);
            assertTrue(run.get("peakHeapBytes").asLong() > 0);
            assertEquals(3, run.get("bins").get("LN").get("coflows").asInt());
        }
        assertEquals(Arrays.asList("fair", "varys", "aalo"), names);
        assertEquals("Infinity", runs.get(2).get("parameters").get("epoch").asText());
        assertEquals(64 * MIB / C, 0.5);
    }

    @Test
    void compareCourierRunsEachSchedulerTwice() throws IOException {
        CliRun r = CliRun.of("simulate", "--trace", trace.toString(), "-s", "fair,aalo(epoch=1)",
                "--compare-courier", "--max-flows", "2", "--format", "json");
        assertEquals(0, r.exit, r.toString());
        JsonNode runs = singleObject(r.out).get("runs");
        assertEquals(4, runs.size());
        String[] expected = {"fair", "fair", "aalo(epoch=1)", "aalo(epoch=1)"};
        for (int i = 0; i < 4; i++) {
            assertEquals(expected[i], runs.get(i).get("scheduler").asText());
            assertEquals(i % 2 == 1, runs.get(i).get("courier").asBoolean());
        }
        assertEquals("1.0", runs.get(2).get("parameters").get("epoch").asText());
        assertTrue(r.err.startsWith("courier simulate: "), r.err);
    }

    @Test
    void tableAndCsvFormats() {
        CliRun t = CliRun.of("simulate", "--trace", trace.toString(), "-s", "fair,varys", "--baseline", "varys",
                "-q");
        assertEquals(0, t.exit, t.toString());
        assertTrue(t.out.startsWith("run "), t.out);
        assertTrue(t.out.contains("CCT relative to varys"), t.out);
        CliRun c = CliRun.of("simulate", "--trace", trace.toString(), "-s", "fair,varys", "--format", "csv", "-q");
        assertEquals(0, c.exit, c.toString());
        String[] lines = c.out.split("\n");
        assertEquals(3, lines.length, c.out);
        assertTrue(lines[1].startsWith("fair,false,3,0.2916666666666"), lines[1]);
        assertTrue(lines[2].startsWith("varys,false,3,"), lines[2]);
    }

    @Test
    void outDirectoryGetsEveryFile() throws IOException {
        Path out = dir.resolve("results");
        CliRun r = CliRun.of("simulate", "--trace", trace.toString(), "-s", "fair,aalo", "--courier", "--out",
                out.toString(), "--format", "json", "-q");
        assertEquals(0, r.exit, r.toString());
        for (String f : Arrays.asList("summary.json", "summary.csv", "coflows-fair+courier.csv",
                "coflows-aalo+courier.csv")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        assertEquals(singleObject(r.out), JSON.readTree(out.resolve("summary.json").toFile()));
        List<String> csv = Files.readAllLines(out.resolve("coflows-fair+courier.csv"));
        assertEquals(Arrays.asList("id,arrival,finish,cct,weight,bytes,width,largestFlowBytes,bin",
                "1,0,0.5,0.5,1,67108864,1,67108864,LN",
                "2,0,0.25,0.25,1,33554432,1,33554432,LN",
                "3,1,1.125,0.125,1,16777216,1,16777216,LN"), csv);
        byte[] magic = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        for (String png : Arrays.asList("cct-cdf.png", "cct-by-bin.png")) {
            byte[] bytes = Files.readAllBytes(out.resolve(png));
            assertTrue(bytes.length > 1000, png);
            assertArrayEquals(magic, Arrays.copyOf(bytes, 8), png);
        }
    }

    @Test
    void coflowSimCompatUsesTheVariantsAndTenSecondEpochs() throws IOException {
        CliRun r = CliRun.of("simulate", "--trace", trace.toString(), "-s", "fair,varys,aalo,fifo",
                "--coflowsim-compat", "--format", "json", "-q");
        assertEquals(0, r.exit, r.toString());
        JsonNode root = singleObject(r.out);
        JsonNode runs = root.get("runs");
        assertEquals("true", runs.get(0).get("parameters").get("coflowsim").asText());
        assertEquals("true", runs.get(1).get("parameters").get("staticKey").asText());
        assertEquals("true", runs.get(2).get("parameters").get("coflowsim").asText());
        assertEquals(10.0, root.get("options").get("admissionEpoch").asDouble());
        assertTrue(root.get("options").get("coflowsimCompat").asBoolean());
    }

    @Test
    void syntheticWorkloadWithSeedWeightsAndLoadScale() throws IOException {
        String spec = "hosts=4,jobs=6,mappers=2,reducers=2,reducersPerHost=1,flowSize=lognormal:mean=1MiB:sigma=1,"
                + "capacity=128MiB/s,load=0.5";
        CliRun a = CliRun.of("simulate", "--workload", spec, "-s", "varys", "--seed", "3", "--weights",
                "uniform:1-5", "--format", "json", "-q");
        assertEquals(0, a.exit, a.toString());
        JsonNode ra = singleObject(a.out).get("runs").get(0);
        assertEquals(6, ra.get("coflows").asInt());
        assertNotEquals(ra.get("avgCct").asDouble(), ra.get("avgWeightedCct").asDouble());
        CliRun again = CliRun.of("simulate", "--workload", spec, "-s", "varys", "--seed", "3", "--weights",
                "uniform:1-5", "--format", "json", "-q");
        assertEquals(ra.get("avgWeightedCct"), singleObject(again.out).get("runs").get(0).get("avgWeightedCct"));
        CliRun other = CliRun.of("simulate", "--workload", spec, "-s", "varys", "--seed", "4", "--format", "json",
                "-q");
        assertNotEquals(ra.get("makespan"), singleObject(other.out).get("runs").get(0).get("makespan"));
        CliRun scaled = CliRun.of("simulate", "--workload", spec, "-s", "varys", "--seed", "3", "--load-scale", "4",
                "--format", "json", "-q");
        assertEquals(0, scaled.exit, scaled.toString());
        CourierCliTest.assertOneLine(CliRun.of("simulate", "--workload", spec + ",seed=1", "-s", "varys", "--seed",
                "3"), "courier simulate: --seed and seed= inside --workload");
        CourierCliTest.assertOneLine(CliRun.of("simulate", "--workload", "hosts=1", "-s", "varys"),
                "courier simulate: --workload: ");
        CourierCliTest.assertOneLine(CliRun.of("simulate", "--workload", spec, "-s", "varys", "--weights", "heavy"),
                "courier simulate: --weights: ");
    }
}
