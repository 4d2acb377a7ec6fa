package io.courier.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo and the mini-cluster benchmarks refuse a bad count or an unknown scheduler as a usage error (exit 2)
 * naming the option, before they create a directory or start a cluster. No cluster starts in this test: each case
 * would start one if its check were missing, and the work directory would then exist.
 */
class CommandOptionsTest {
    @TempDir
    Path tmp;

    private final StringWriter err = new StringWriter();

    private int execute(Callable<Integer> command, String... args) {
        CommandLine cl = new CommandLine(command);
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private static PrintStream sink() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    private void refused(Callable<Integer> command, String expected, String... args) {
        Path work = tmp.resolve("work");
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--work-dir";
        all[args.length + 1] = work.toString();
        assertEquals(2, execute(command, all), String.join(" ", args) + ": " + err);
        assertTrue(err.toString().contains(expected), "expected '" + expected + "' in: " + err);
        assertFalse(Files.exists(work), "the command created its work directory before refusing " + String.join(" ",
                args));
    }

    @Test
    void badCountsAreUsageErrorsNamingTheOption() {
        refused(new CourierDemo(sink()), "--nodes must be at least 1, got 0", "--nodes", "0");
        refused(new CourierDemo(sink()), "--reduces must be at least 1, got 0", "--reduces", "0");
        refused(new TeraSortBenchmark(sink()), "--repeats must be at least 1, got 0", "--repeats", "0");
        refused(new LoadBenchmark(sink()), "--max-shuffle-connections must be at least 0, got -1",
                "--max-shuffle-connections", "-1");
        refused(new CoordinatorChaosBenchmark(sink()), "--down-ms must be at least 1, got 0", "--down-ms", "0");
        refused(new CoflowSchedulingBenchmark(sink()), "--nodes must be at least 2, got 1", "--nodes", "1");
        refused(new CoflowSchedulingBenchmark(sink()), "--submit-small-at must be a fraction between 0 and 1, got 1.5",
                "--submit-small-at", "1.5");
    }

    @Test
    void unknownSchedulersAreUsageErrorsListingTheKnownOnes() {
        refused(new CoflowSchedulingBenchmark(sink()),
                "--schedulers: unknown scheduler 'avlo'; valid schedulers: fair,", "--schedulers", "fair,avlo");
        refused(new CoordinatorChaosBenchmark(sink()), "--scheduler: unknown scheduler 'sincronai'",
                "--scheduler", "sincronai");
    }
}
