package io.courier.demo;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.courier.it.JobRun;
import io.courier.it.MiniCourierCluster;
import io.courier.it.NodeShuffleService;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/courier demo}: starts an embedded cluster (HDFS and YARN with 3 NodeManagers running Courier's
 * shuffle service), generates TeraSort input once, sorts it with Hadoop's stock shuffle and with Courier,
 * validates both, checks that both sorted outputs are byte-identical, and prints a side-by-side table. Everything
 * it starts is stopped before it returns. Exit code 0 when both runs validate and agree, 1 otherwise.
 */
@Command(name = "courier demo", mixinStandardHelpOptions = true,
        description = "Run TeraSort on an embedded 3-node Hadoop cluster with the stock shuffle and with Courier,"
                + " validate both and compare them side by side.")
public final class CourierDemo implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--rows", description = "TeraGen rows of 100 bytes (default: ${DEFAULT-VALUE}).")
    long rows = 100_000;

    @Option(names = "--maps", description = "TeraGen maps = TeraSort maps (default: ${DEFAULT-VALUE}).")
    int maps = 6;

    // Three per node by default: with one reducer per node stock Hadoop opens about as many connections as
    // Courier, and the comparison would not show what merging them is for.
    @Option(names = "--reduces", description = "TeraSort reducers (default: 3 per NodeManager).")
    Integer reduces;

    @Option(names = "--nodes", description = "NodeManagers (default: ${DEFAULT-VALUE}).")
    int nodes = 3;

    @Option(names = "--work-dir", description = "Directory for the cluster's data and logs (default: ${DEFAULT-VALUE}).")
    Path workDir = Path.of("target", "courier-demo");

    @Option(names = "--stock-only", description = "Run only the stock shuffle.")
    boolean stockOnly;

    private final PrintStream out;

    CourierDemo(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        int code = new CommandLine(new CourierDemo(System.out)).execute(args);
        // Hadoop leaves non-daemon threads behind (e.g. its metrics and IPC clients) after its clusters stop.
        System.exit(code);
    }

    @Override
    public Integer call() throws Exception {
        OptionChecks checks = new OptionChecks(spec).atLeast("--rows", rows, 1).atLeast("--maps", maps, 1)
                .atLeast("--nodes", nodes, 1);
        if (reduces != null) {
            checks.atLeast("--reduces", reduces, 1);
        }
        Files.createDirectories(workDir);
        Path logFile = workDir.resolve("courier-demo.log").toAbsolutePath();
        DemoLogging.toFile(logFile);
        // TeraSort prints its sampling to System.out: keep stdout for the table.
        System.setOut(new PrintStream(Files.newOutputStream(workDir.resolve("courier-demo.stdout.log")), true,
                java.nio.charset.StandardCharsets.UTF_8));
        boolean courier = !stockOnly;
        int reduces = this.reduces != null ? this.reduces : 3 * nodes;
        long t0 = System.nanoTime();
        progress("logs: " + logFile);
        List<String> failures = new ArrayList<>();
        SortRun stock;
        SortRun withCourier = null;
        long startMillis;
        JobRun gen;
        try (MiniCourierCluster cluster = MiniCourierCluster.start("courier-demo", nodes,
                courier ? NodeShuffleService.COURIER : NodeShuffleService.STOCK, workDir.resolve("cluster"))) {
            startMillis = cluster.startMillis();
            progress(String.format(Locale.ROOT, "cluster up in %.1f s: HDFS + YARN with %d NodeManagers running %s",
                    startMillis / 1000.0, nodes, cluster.service().className()));
            TeraSortRunner runner = new TeraSortRunner(cluster);
            org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/demo/tera-in");
            gen = runner.jobs().teraGen(rows, maps, in);
            if (!gen.succeeded()) {
                throw new IllegalStateException("TeraGen failed: " + gen);
            }
            progress(String.format(Locale.ROOT, "TeraGen: %,d rows in %.1f s", rows, gen.wallMillis() / 1000.0));
            stock = runner.sort(false, reduces, in, new org.apache.hadoop.fs.Path("/demo/sorted-stock"), true);
            progress(String.format(Locale.ROOT, "TeraSort + TeraValidate, stock shuffle: sort %.1f s",
                    stock.sort().wallMillis() / 1000.0));
            if (courier) {
                withCourier = runner.sort(true, reduces, in, new org.apache.hadoop.fs.Path("/demo/sorted-courier"),
                        true);
                progress(String.format(Locale.ROOT, "TeraSort + TeraValidate, Courier shuffle: sort %.1f s",
                        withCourier.sort().wallMillis() / 1000.0));
            }
            progress("stopping the cluster");
        }
        if (!stock.report().valid()) {
            failures.add("TeraValidate found problems in the stock output: " + stock.report().problems());
        }
        if (withCourier != null) {
            if (!withCourier.report().valid()) {
                failures.add("TeraValidate found problems in the Courier output: " + withCourier.report().problems());
            }
            if (!stock.output().equals(withCourier.output())) {
                failures.add("sorted outputs differ in " + stock.output().differences(withCourier.output()));
            }
            long courierBytes = withCourier.sort().courier("PROXY_BYTES") + withCourier.sort().courier("LOCAL_BYTES");
            if (courierBytes != withCourier.sort().shuffleBytes()) {
                failures.add("Courier moved " + courierBytes + " of " + withCourier.sort().shuffleBytes()
                        + " shuffle bytes through its proxies or from node-local files");
            }
        }
        out.println();
        out.print(new ComparisonTable(stock, withCourier).render());
        out.println();
        out.printf(Locale.ROOT, "TeraGen %,d rows (%d maps), TeraSort with %d reducers on %d NodeManagers;"
                        + " cluster start %.1f s, total %.1f s%n", rows, maps, reduces, nodes, startMillis / 1000.0,
                (System.nanoTime() - t0) / 1e9);
        if (withCourier != null) {
            out.println("Courier's proxy -> proxy connections are long-lived (one per node pair and direction),");
            out.println("opened once and shared by every later job; a reducer's connection to its own node's proxy");
            out.println("never leaves the node, and map outputs on its own node are read from their files (LOCAL_*).");
        }
        out.println("Logs: " + logFile);
        if (!failures.isEmpty()) {
            for (String f : failures) {
                out.println("FAILED: " + f);
            }
            return 1;
        }
        out.println(withCourier == null ? "OK: stock TeraSort validated (Courier not run)"
                : "OK: both outputs validated by TeraValidate and byte-identical");
        return 0;
    }

    private static void progress(String line) {
        System.err.println("courier demo: " + line);
    }
}
