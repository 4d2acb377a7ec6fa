package io.courier.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parsing and bad input: everything that is decided before a workload is built. */
class CourierCliTest {
    @TempDir
    Path dir;

    @Test
    void helpListsEveryOptionAndScheduler() {
        CliRun r = CliRun.of("simulate", "--help");
        assertEquals(0, r.exit, r.toString());
        for (String o : Arrays.asList("--trace", "--workload", "--scheduler", "--courier", "--compare-courier",
                "--max-flows", "--min-split-size", "--parallel-copies", "--load-scale", "--weights", "--seed",
                "--port-capacity", "--coflowsim-compat", "--out", "--format", "--baseline", "--quiet", "--help")) {
            assertTrue(r.out.contains(o), o + " missing from help:\n" + r.out);
        }
        for (String s : Arrays.asList("fair:", "varys:", "aalo:", "sincronia:", "firstThreshold=10485760,",
                "aalo(epoch=Infinity)", "table, json, csv")) {
            assertTrue(r.out.contains(s), s + " missing from help:\n" + r.out);
        }
        assertEquals("", r.err);
        CliRun top = CliRun.of("--help");
        assertEquals(0, top.exit);
        assertTrue(top.out.contains("simulate"), top.out);
        assertEquals(0, CliRun.of("help", "simulate").exit);
    }

    @Test
    void noCommandIsAUsageError() {
        CliRun r = CliRun.of();
        assertEquals(2, r.exit, r.toString());
        assertOneLine(r, "courier: a command is required: simulate, help");
    }

    @Test
    void unknownOptionAndCommand() {
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--frobnicate"),
                "courier simulate: Unknown option: '--frobnicate'");
        assertOneLine(CliRun.of("simulat"), "courier: Unmatched argument at index 0: 'simulat'; did you mean simulate?");
    }

    @Test
    void missingOrDoubleSource() {
        assertOneLine(CliRun.of("simulate", "-s", "fair"), "courier simulate: Error: Missing required argument (specify one of these): (--trace=FILE | --workload=SPEC)");
        assertOneLine(CliRun.of("simulate", "-s", "fair", "--trace", "a", "--workload", "hosts=2"),
                "courier simulate: Error: --trace=FILE, --workload=SPEC are mutually exclusive");
    }

    @Test
    void unknownSchedulerListsTheValidOnes() {
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair,fiar"),
                "courier simulate: unknown scheduler 'fiar'; valid schedulers: fair, fifo, varys, aalo, sincronia");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "aalo(queues=0)"),
                "courier simulate: parameter 'queues' of scheduler 'aalo' must be in [1, 64], got 0");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "aalo(queues=3"),
                "courier simulate: '(' without ')' in scheduler list 'aalo(queues=3'");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "-s", "varys,fair"),
                "courier simulate: scheduler 'fair' is listed twice");
    }

    @Test
    void badNumbers() {
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--max-flows", "many"),
                "courier simulate: Invalid value for option '--max-flows': 'many' is not an int");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--max-flows", "0"),
                "courier simulate: --max-flows must be >= 1, got 0");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--load-scale", "-2"),
                "courier simulate: --load-scale must be finite and > 0, got -2.0");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--min-split-size", "NaN"),
                "courier simulate: --min-split-size must be a finite number of bytes > 0, got NaN");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--parallel-copies", "-1"),
                "courier simulate: --parallel-copies must be >= 0 (0 = unlimited), got -1");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--format", "xml"),
                "courier simulate: Invalid value for option '--format': expected one of [table, json, csv]");
        assertOneLine(CliRun.of("simulate", "--workload", "hosts=2", "-s", "fair", "--port-capacity", "1e9"),
                "courier simulate: --port-capacity applies to --trace only");
    }

    @Test
    void contradictoryOptions() {
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair", "--courier", "--compare-courier"),
                "courier simulate: --courier and --compare-courier exclude each other");
        assertOneLine(CliRun.of("simulate", "--trace", "x", "-s", "fair,varys", "--baseline", "aalo"),
                "courier simulate: --baseline 'aalo' is none of the runs: fair, varys");
    }

    @Test
    void missingAndMalformedFiles() throws IOException {
        Path missing = dir.resolve("nope.txt");
        assertOneLine(CliRun.of("simulate", "--trace", missing.toString(), "-s", "fair"),
                "courier simulate: trace file not found: " + missing);
        assertOneLine(CliRun.of("simulate", "--trace", dir.toString(), "-s", "fair"),
                "courier simulate: trace file " + dir + " is a directory");
        Path bad = dir.resolve("bad.txt");
        Files.write(bad, "4 1\n1 0 1 0 1 2-1.0\n".getBytes(StandardCharsets.UTF_8));
        assertOneLine(CliRun.of("simulate", "--trace", bad.toString(), "-s", "fair"),
                "courier simulate: " + bad + ", line 2: ");
        Path file = dir.resolve("file");
        Files.write(file, new byte[] {1});
        assertOneLine(CliRun.of("simulate", "--trace", bad.toString(), "-s", "fair", "--out", file.toString()),
                "courier simulate: --out " + file + " exists and is not a directory");
    }

    /** Exit 2, nothing on stdout, exactly one line on stderr that starts with {@code prefix}, no stack trace. */
    static void assertOneLine(CliRun r, String prefix) {
        assertEquals(2, r.exit, r.toString());
        assertEquals("", r.out, r.toString());
        String err = r.err.replace(System.lineSeparator(), "\n");
        assertTrue(err.endsWith("\n"), r.toString());
        assertEquals(1, err.split("\n").length, "more than one line on stderr:\n" + r);
        assertTrue(err.startsWith(prefix), "expected a line starting with\n" + prefix + "\n" + r);
        assertFalse(err.contains("\tat "), r.toString());
    }
}
