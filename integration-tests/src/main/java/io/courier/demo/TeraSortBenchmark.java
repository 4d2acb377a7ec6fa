package io.courier.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.courier.it.JobRun;
import io.courier.it.MiniCourierCluster;
import io.courier.it.NodeShuffleService;
import io.courier.it.OutputDigest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * TeraSort on one embedded 3-NodeManager cluster, stock shuffle versus Courier, in alternating repeats (the order
 * within a repeat alternates too, so that drift in the machine's load hits both sides alike). Prints each run and
 * the median/min/max of the Courier/stock ratios of job time and shuffle time, and the connections each opened;
 * writes the same as JSON to {@code --out}. A benchmark, not a test: it asserts only that every output matches
 * the first stock output.
 */
@Command(name = "terasort-minicluster", mixinStandardHelpOptions = true,
        description = "TeraSort stock vs Courier on an embedded mini cluster, alternating repeats.")
public final class TeraSortBenchmark implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--repeats", description = "Stock/Courier pairs (default: ${DEFAULT-VALUE}).")
    int repeats = 5;

    @Option(names = "--rows", description = "TeraGen rows of 100 bytes (default: ${DEFAULT-VALUE}).")
    long rows = 200_000;

    @Option(names = "--maps", description = "TeraGen/TeraSort maps (default: ${DEFAULT-VALUE}).")
    int maps = 6;

    @Option(names = "--reduces", description = "TeraSort reducers (default: ${DEFAULT-VALUE}).")
    int reduces = 3;

    @Option(names = "--nodes", description = "NodeManagers (default: ${DEFAULT-VALUE}).")
    int nodes = 3;

    @Option(names = "--work-dir", description = "Cluster data and logs (default: ${DEFAULT-VALUE}).")
    Path workDir = Path.of("target", "terasort-bench");

    @Option(names = "--out", description = "Directory for results.json (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("target", "terasort-bench");

    @Option(names = "--stock-only", description = "Benchmark the stock shuffle against itself.")
    boolean stockOnly;

    private final PrintStream out;

    TeraSortBenchmark(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TeraSortBenchmark(System.out)).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        new OptionChecks(spec).atLeast("--repeats", repeats, 1).atLeast("--rows", rows, 1).atLeast("--maps", maps, 1)
                .atLeast("--reduces", reduces, 1).atLeast("--nodes", nodes, 1);
        Files.createDirectories(workDir);
        Files.createDirectories(outDir);
        Path logFile = workDir.resolve("terasort-bench.log").toAbsolutePath();
        DemoLogging.toFile(logFile);
        // TeraSort prints its sampling to System.out: keep stdout for the results.
        System.setOut(new PrintStream(Files.newOutputStream(workDir.resolve("terasort-bench.stdout.log")), true,
                StandardCharsets.UTF_8));
        boolean courier = !stockOnly;
        String started = Instant.now().toString();
        List<SortRun> stockRuns = new ArrayList<>();
        List<SortRun> courierRuns = new ArrayList<>();
        long startMillis;
        OutputDigest reference = null;
        try (MiniCourierCluster cluster = MiniCourierCluster.start("terasort-bench", nodes,
                courier ? NodeShuffleService.COURIER : NodeShuffleService.STOCK, workDir.resolve("cluster"))) {
            startMillis = cluster.startMillis();
            TeraSortRunner runner = new TeraSortRunner(cluster);
            org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/bench/tera-in");
            JobRun gen = runner.jobs().teraGen(rows, maps, in);
            if (!gen.succeeded()) {
                throw new IllegalStateException("TeraGen failed: " + gen);
            }
            out.printf(Locale.ROOT, "# TeraSort %,d rows, %d maps, %d reducers, %d NodeManagers; cluster start %.1f s;"
                    + " logs %s%n", rows, maps, reduces, nodes, startMillis / 1000.0, logFile);
            out.println("repeat variant  job_s  shuffle_max_s  shuffle_sum_s  shuffle_bytes  conns(http/relay/peer)");
            for (int i = 0; i < repeats; i++) {
                boolean courierFirst = i % 2 == 1;
                for (int k = 0; k < 2; k++) {
                    boolean useCourier = courier && (k == 0) == courierFirst;
                    boolean isSecondOfPair = k == 1;
                    SortRun r = runner.sort(useCourier, reduces, in,
                            new org.apache.hadoop.fs.Path("/bench/sorted"), false);
                    if (reference == null) {
                        reference = r.output();
                    } else if (!reference.equals(r.output())) {
                        throw new IllegalStateException("repeat " + i + " (" + r.label()
                                + ") sorted differently: " + reference.differences(r.output()));
                    }
                    // In --stock-only mode the second run of each pair stands in for Courier.
                    boolean asCourier = courier ? useCourier : isSecondOfPair;
                    (asCourier ? courierRuns : stockRuns).add(r);
                    out.printf(Locale.ROOT, "%6d %-7s %6.1f %14.1f %14.1f %14d  %d/%d/%d%n", i, r.label(),
                            r.sort().wallMillis() / 1000.0, r.sort().maxShuffleMillis() / 1000.0,
                            r.sort().totalShuffleMillis() / 1000.0, r.sort().shuffleBytes(), r.httpConnections(),
                            r.relayConnections(), r.peerConnections());
                }
            }
        }
        double[] jobRatio = ratios(stockRuns, courierRuns, r -> r.sort().wallMillis());
        double[] shuffleRatio = ratios(stockRuns, courierRuns, r -> r.sort().maxShuffleMillis());
        double[] shuffleSumRatio = ratios(stockRuns, courierRuns, r -> r.sort().totalShuffleMillis());
        out.println();
        out.println("ratio Courier/stock        median    min    max");
        printRatio("job time", jobRatio);
        printRatio("shuffle time (slowest)", shuffleRatio);
        printRatio("shuffle time (sum)", shuffleSumRatio);
        out.printf(Locale.ROOT, "connections opened per run, median: stock %.0f, Courier %.0f%n",
                median(values(stockRuns, SortRun::shuffleConnections)),
                median(values(courierRuns, SortRun::shuffleConnections)));
        Path json = outDir.resolve("results.json");
        Files.writeString(json, json(started, startMillis, stockRuns, courierRuns, jobRatio, shuffleRatio,
                shuffleSumRatio), StandardCharsets.UTF_8);
        out.println("results: " + json.toAbsolutePath());
        return 0;
    }

    private interface Metric {
        long of(SortRun r);
    }

    private static double[] ratios(List<SortRun> stock, List<SortRun> courier, Metric m) {
        double[] r = new double[Math.min(stock.size(), courier.size())];
        for (int i = 0; i < r.length; i++) {
            r[i] = (double) m.of(courier.get(i)) / Math.max(1, m.of(stock.get(i)));
        }
        return r;
    }

    private static double[] values(List<SortRun> runs, Metric m) {
        return runs.stream().mapToDouble(m::of).toArray();
    }

    private static double median(double[] v) {
        return Medians.of(v);
    }

    private void printRatio(String name, double[] r) {
        out.printf(Locale.ROOT, "%-24s %7.3f %6.3f %6.3f%n", name, median(r),
                Arrays.stream(r).min().orElse(Double.NaN), Arrays.stream(r).max().orElse(Double.NaN));
    }

    private String json(String started, long startMillis, List<SortRun> stock, List<SortRun> courier,
                        double[] jobRatio, double[] shuffleRatio, double[] shuffleSumRatio) {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append(String.format(Locale.ROOT, "  \"started\": \"%s\",%n  \"rows\": %d, \"maps\": %d, \"reduces\": %d,"
                + " \"nodes\": %d, \"repeats\": %d, \"clusterStartMillis\": %d,%n", started, rows, maps, reduces,
                nodes, repeats, startMillis));
        sb.append("  \"runs\": [\n");
        List<String> items = new ArrayList<>();
        for (int i = 0; i < Math.max(stock.size(), courier.size()); i++) {
            if (i < stock.size()) {
                items.add(runJson(i, stock.get(i)));
            }
            if (i < courier.size()) {
                items.add(runJson(i, courier.get(i)));
            }
        }
        sb.append(String.join(",\n", items)).append("\n  ],\n");
        sb.append("  \"ratios\": {\n");
        sb.append("    \"jobTime\": ").append(stats(jobRatio)).append(",\n");
        sb.append("    \"shuffleTimeSlowest\": ").append(stats(shuffleRatio)).append(",\n");
        sb.append("    \"shuffleTimeSum\": ").append(stats(shuffleSumRatio)).append("\n  }\n}\n");
        return sb.toString();
    }

    private static String runJson(int repeat, SortRun r) {
        return String.format(Locale.ROOT, "    {\"repeat\": %d, \"variant\": \"%s\", \"jobId\": \"%s\", \"jobMillis\": %d,"
                + " \"shuffleMaxMillis\": %d, \"shuffleSumMillis\": %d, \"shuffleBytes\": %d, \"httpConnections\": %d,"
                + " \"relayConnections\": %d, \"peerConnections\": %d, \"proxyBytes\": %d, \"httpFallbackBytes\": %d}",
                repeat, r.label(), r.sort().jobId(), r.sort().wallMillis(), r.sort().maxShuffleMillis(),
                r.sort().totalShuffleMillis(), r.sort().shuffleBytes(), r.httpConnections(), r.relayConnections(),
                r.peerConnections(), r.sort().courier("PROXY_BYTES"), r.sort().courier("HTTP_FALLBACK_BYTES"));
    }

    private static String stats(double[] r) {
        return String.format(Locale.ROOT, "{\"median\": %.4f, \"min\": %.4f, \"max\": %.4f, \"values\": %s}", median(r),
                Arrays.stream(r).min().orElse(Double.NaN), Arrays.stream(r).max().orElse(Double.NaN),
                Arrays.toString(Arrays.stream(r).mapToObj(v -> String.format(Locale.ROOT, "%.4f", v)).toArray()));
    }
}
