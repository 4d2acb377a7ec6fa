package io.courier.demo;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.it.ExampleJobs;
import io.courier.it.JobRun;
import io.courier.it.MiniCourierCluster;
import io.courier.it.NodeShuffleService;
import io.courier.it.OutputDigest;
import io.courier.shuffle.nm.PortPairPicker;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Coflow scheduling on the mini cluster (issue "The coordinator"): a large and a small TeraSort share the
 * proxies' paced links, first under the baseline scheduler (per-flow fair sharing), then under coflow
 * schedulers, with the coordinator running in this JVM and the NodeManagers' proxies connected to it. The large
 * job's reducers start with its maps (slowstart 0), so its shuffle spans its map phase and the paced transfer
 * after it; the small job (slowstart 1) is submitted once all of the large job's maps are done, when what is
 * left of the large shuffle is paced transfer, so that the small shuffle meets it on the same links (each round
 * reports how long the large shuffle went on after the small one ended: a round where it did not outlast it
 * measured no contention). A coflow scheduler should finish the small job's shuffle earlier than fair sharing
 * does; the large job's cost is reported too. Jobs run without speculative attempts. Then the coordinator is
 * stopped in the middle of a shuffle and started again: the job must complete with the same output, and the
 * proxies must re-register (read back from {@code GET /api/v1/status}). A benchmark, not a test: it checks only
 * that every output equals the reference output of its input (TeraValidate-checked once).
 */
@Command(name = "coflow-minicluster", mixinStandardHelpOptions = true,
        description = "Two concurrent TeraSorts under coflow schedulers vs fair sharing, and a coordinator restart.")
public final class CoflowSchedulingBenchmark implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--schedulers", split = ",", description = "Schedulers; the first is the baseline "
            + "(default: ${DEFAULT-VALUE}).")
    List<String> schedulers = Arrays.asList("fair", "aalo", "varys");

    @Option(names = "--repeats", description = "Rounds over all schedulers (default: ${DEFAULT-VALUE}).")
    int repeats = 3;

    @Option(names = "--large-rows", description = "Rows of the large job (default: ${DEFAULT-VALUE}).")
    long largeRows = 600_000;

    @Option(names = "--small-rows", description = "Rows of the small job (default: ${DEFAULT-VALUE}).")
    long smallRows = 60_000;

    @Option(names = "--reduces", description = "Reducers per job (default: ${DEFAULT-VALUE}).")
    int reduces = 3;

    @Option(names = "--nodes", description = "NodeManagers (default: ${DEFAULT-VALUE}).")
    int nodes = 3;

    @Option(names = "--capacity", description = "Each proxy's link in bytes/s, each direction; the coordinator "
            + "paces to it (default: ${DEFAULT-VALUE}).")
    long capacity = 128 * 1024;

    @Option(names = "--large-slowstart", description = "Completed-maps fraction at which the large job's reducers"
            + " start (default: ${DEFAULT-VALUE}).")
    float largeSlowstart = 0.0f;

    @Option(names = "--submit-small-at", description = "Fraction of the large job's maps done when the small job is"
            + " submitted (default: ${DEFAULT-VALUE}).")
    float submitSmallAt = 1.0f;

    @Option(names = "--epoch-ms", description = "Coordinator epoch (default: ${DEFAULT-VALUE}).")
    long epochMillis = 50;

    @Option(names = "--node-setting", description = "KEY=VALUE for every NodeManager's configuration, e.g. "
            + "courier.proxy.pacing.burst.bytes=16384 (repeatable; applied after the benchmark's own settings).")
    Map<String, String> extraNodeSettings = new LinkedHashMap<>();

    @Option(names = "--skip-restart", description = "Skip the coordinator stop/start check.")
    boolean skipRestart;

    @Option(names = "--restart-only", description = "Only the coordinator stop/start check (no scheduler rounds).")
    boolean restartOnly;

    @Option(names = "--work-dir", description = "Cluster data and logs (default: ${DEFAULT-VALUE}).")
    Path workDir = Path.of("target", "coflow-bench");

    @Option(names = "--out", description = "Directory for results.json (default: ${DEFAULT-VALUE}).")
    Path outDir = Path.of("target", "coflow-bench");

    private final PrintStream out;
    private InProcessCoordinator coordinator;
    private int port;

    CoflowSchedulingBenchmark(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CoflowSchedulingBenchmark(System.out)).execute(args));
    }

    /** One pair of concurrent jobs under one scheduler. */
    private record PairRun(int repeat, String scheduler, JobRun large, JobRun small, long largeWall,
                           long smallWall) {
        /** How long the large shuffle outlasted the small one (ms); ≤ 0: they did not contend to the end. */
        long largeAfterSmall() {
            return large.lastShuffleFinishTime() - small.lastShuffleFinishTime();
        }

        String json() {
            return String.format(Locale.ROOT, "    {\"repeat\": %d, \"scheduler\": \"%s\", \"smallJob\": \"%s\","
                    + " \"smallJobMillis\": %d, \"smallShuffleMaxMillis\": %d, \"largeJob\": \"%s\", \"largeJobMillis\":"
                    + " %d, \"largeShuffleMaxMillis\": %d, \"largeShuffleEndAfterSmallMillis\": %d,"
                    + " \"smallShuffleBytes\": %d, \"largeShuffleBytes\": %d,"
                    + " \"proxyBytes\": %d, \"httpFallbackBytes\": %d}", repeat, scheduler, small.jobId(), smallWall,
                    small.maxShuffleMillis(), large.jobId(), largeWall, large.maxShuffleMillis(), largeAfterSmall(),
                    small.shuffleBytes(), large.shuffleBytes(),
                    small.courier("PROXY_BYTES") + large.courier("PROXY_BYTES"),
                    small.courier("HTTP_FALLBACK_BYTES") + large.courier("HTTP_FALLBACK_BYTES"));
        }
    }

    @Override
    public Integer call() throws Exception {
        OptionChecks checks = new OptionChecks(spec).atLeast("--repeats", repeats, 1)
                .atLeast("--large-rows", largeRows, 1).atLeast("--small-rows", smallRows, 1)
                .atLeast("--reduces", reduces, 1).atLeast("--nodes", nodes, 2).atLeast("--capacity", capacity, 1)
                .fraction("--large-slowstart", largeSlowstart).fraction("--submit-small-at", submitSmallAt)
                .atLeast("--epoch-ms", epochMillis, 1);
        if (schedulers.isEmpty()) {
            throw checks.error("--schedulers names no scheduler");
        }
        for (String s : schedulers) {
            checks.scheduler("--schedulers", s);
        }
        Files.createDirectories(workDir);
        Files.createDirectories(outDir);
        Path logFile = workDir.resolve("coflow-bench.log").toAbsolutePath();
        DemoLogging.toFile(logFile);
        System.setOut(new PrintStream(Files.newOutputStream(workDir.resolve("coflow-bench.stdout.log")), true,
                StandardCharsets.UTF_8));
        String started = Instant.now().toString();
        // Outside the kernel's ephemeral range: the coordinator's port is free between scheduler switches and for
        // the restart case's 5 s outage, while the cluster's outgoing connections draw local ports from that range.
        port = PortPairPicker.pick(0);
        Map<String, String> nodeSettings = new LinkedHashMap<>();
        nodeSettings.put("courier.coordinator.address", "127.0.0.1:" + port);
        nodeSettings.put("courier.proxy.capacity.bytes-per-second", String.valueOf(capacity));
        nodeSettings.put("courier.coordinator.register-retry-ms", "500");
        // Two jobs at once need more than 2 containers of 512 MB per NodeManager.
        nodeSettings.put("yarn.minicluster.yarn.nodemanager.resource.memory-mb", "3072");
        nodeSettings.putAll(extraNodeSettings);
        List<PairRun> runs = new ArrayList<>();
        String restart = "skipped";
        coordinator = InProcessCoordinator.start(schedulers.get(0), port, epochMillis);
        try (MiniCourierCluster cluster = MiniCourierCluster.start("coflow-bench", nodes, NodeShuffleService.COURIER,
                workDir.resolve("cluster"), nodeSettings)) {
            coordinator.awaitNodes(nodes, 60_000);
            TeraSortRunner runner = new TeraSortRunner(cluster);
            FileSystem fs = cluster.fileSystem();
            org.apache.hadoop.fs.Path largeIn = new org.apache.hadoop.fs.Path("/bench/large-in");
            org.apache.hadoop.fs.Path smallIn = new org.apache.hadoop.fs.Path("/bench/small-in");
            org.apache.hadoop.fs.Path largeOut = new org.apache.hadoop.fs.Path("/bench/large-out");
            org.apache.hadoop.fs.Path smallOut = new org.apache.hadoop.fs.Path("/bench/small-out");
            requireOk(runner.jobs().teraGen(largeRows, 6, largeIn));
            requireOk(runner.jobs().teraGen(smallRows, 3, smallIn));
            // References: each job alone, TeraValidate-checked.
            OutputDigest largeRef = runner.sort(true, reduces, largeIn, largeOut, true).output();
            OutputDigest smallRef = runner.sort(true, reduces, smallIn, smallOut, true).output();
            out.printf(Locale.ROOT, "# large %,d rows (slowstart %.2f), small %,d rows submitted at %.0f%% of the large"
                    + " maps, %d reducers each, %d NodeManagers, links %,d B/s, epoch %d ms, node settings %s;"
                    + " logs %s%n",
                    largeRows, largeSlowstart, smallRows, submitSmallAt * 100, reduces, nodes, capacity, epochMillis,
                    extraNodeSettings, logFile);
            out.println("repeat scheduler   small_job_s  small_shuffle_s  large_job_s  large_shuffle_s"
                    + "  large_after_small_s");
            for (int i = 0; i < (restartOnly ? 0 : repeats); i++) {
                for (int k = 0; k < schedulers.size(); k++) {
                    String scheduler = schedulers.get((i + k) % schedulers.size());
                    switchTo(scheduler);
                    PairRun r = runPair(i, scheduler, cluster, runner.jobs(), largeIn, smallIn, largeOut, smallOut);
                    check(fs, largeOut, largeRef, r);
                    check(fs, smallOut, smallRef, r);
                    runs.add(r);
                    out.printf(Locale.ROOT, "%6d %-10s %12.1f %16.1f %12.1f %16.1f %20.1f%n", i, scheduler,
                            r.smallWall() / 1000.0, r.small().maxShuffleMillis() / 1000.0, r.largeWall() / 1000.0,
                            r.large().maxShuffleMillis() / 1000.0, r.largeAfterSmall() / 1000.0);
                }
            }
            if (!runs.isEmpty()) {
                summarize(runs);
            }
            if (!skipRestart) {
                restart = restartCheck(cluster, largeIn, largeOut, largeRef);
                out.println(restart);
            }
        } finally {
            coordinator.close();
        }
        Path json = outDir.resolve("results.json");
        List<String> items = new ArrayList<>();
        for (PairRun r : runs) {
            items.add(r.json());
        }
        Files.writeString(json, String.format(Locale.ROOT, "{%n  \"started\": \"%s\", \"largeRows\": %d, \"smallRows\":"
                + " %d, \"reduces\": %d, \"nodes\": %d, \"capacityBytesPerSecond\": %d, \"epochMillis\": %d,%n"
                + "  \"runs\": [%n%s%n  ],%n  \"restartCheck\": \"%s\"%n}%n", started, largeRows, smallRows, reduces,
                nodes, capacity, epochMillis, String.join(",\n", items), restart.replace("\"", "'")),
                StandardCharsets.UTF_8);
        out.println("results: " + json.toAbsolutePath());
        return 0;
    }

    private void switchTo(String scheduler) throws Exception {
        if (coordinator != null) {
            coordinator.close();
        }
        coordinator = InProcessCoordinator.start(scheduler, port, epochMillis);
        coordinator.awaitNodes(nodes, 60_000);
    }

    private PairRun runPair(int repeat, String scheduler, MiniCourierCluster cluster, ExampleJobs jobs,
            org.apache.hadoop.fs.Path largeIn, org.apache.hadoop.fs.Path smallIn, org.apache.hadoop.fs.Path largeOut,
            org.apache.hadoop.fs.Path smallOut) throws Exception {
        FileSystem fs = cluster.fileSystem();
        fs.delete(largeOut, true);
        fs.delete(smallOut, true);
        JobConf largeConf = cluster.measuredJobConf(true);
        largeConf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", largeSlowstart);
        JobConf smallConf = cluster.measuredJobConf(true);
        smallConf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
        BackgroundTeraSort large = BackgroundTeraSort.submit(largeConf, reduces, largeIn, largeOut);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (!large.mapsDoneAndReducing(submitSmallAt)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(large.jobId() + " did not get " + submitSmallAt
                        + " of its maps done within 10 minutes");
            }
            Thread.sleep(250); // polling the job's progress: there is nothing to wait on
        }
        BackgroundTeraSort small = BackgroundTeraSort.submit(smallConf, reduces, smallIn, smallOut);
        long smallWall = small.await();
        long largeWall = large.await();
        JobRun s = jobs.history().awaitJob(small.jobId(), smallWall, 60_000);
        JobRun l = jobs.history().awaitJob(large.jobId(), largeWall, 60_000);
        requireOk(s);
        requireOk(l);
        return new PairRun(repeat, scheduler, l, s, largeWall, smallWall);
    }

    private static void awaitShuffle(BackgroundTeraSort job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (!job.shuffling()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(job.jobId() + " did not reach its shuffle within 10 minutes");
            }
            Thread.sleep(250); // polling the job's progress: there is nothing to wait on
        }
    }

    /**
     * Stops the coordinator while a large job shuffles, starts it again 5 s later, and checks that the job
     * completes with the reference output and that every proxy registered again, as the status API shows.
     */
    private String restartCheck(MiniCourierCluster cluster, org.apache.hadoop.fs.Path in,
            org.apache.hadoop.fs.Path outPath, OutputDigest reference) throws Exception {
        FileSystem fs = cluster.fileSystem();
        fs.delete(outPath, true);
        JobConf conf = cluster.measuredJobConf(true);
        conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
        String scheduler = schedulers.get(schedulers.size() - 1);
        switchTo(scheduler);
        BackgroundTeraSort job = BackgroundTeraSort.submit(conf, reduces, in, outPath);
        awaitShuffle(job);
        coordinator.close();
        coordinator = null;
        long stoppedAt = System.nanoTime();
        Thread.sleep(5_000); // the outage being measured
        coordinator = InProcessCoordinator.start(scheduler, port, epochMillis);
        long reRegisterMillis = coordinator.awaitNodes(nodes, 120_000);
        String status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/v1/status"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        long wall = job.await();
        long outage = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
        OutputDigest got = OutputDigest.of(fs, outPath);
        if (!reference.equals(got)) {
            throw new IllegalStateException("after the coordinator restart " + job.jobId() + " sorted differently: "
                    + reference.differences(got));
        }
        CoordinatorStatus after = coordinator.status();
        Files.writeString(outDir.resolve("status-after-restart.json"), status, StandardCharsets.UTF_8);
        boolean listed = status.contains("\"nodes\"") && after.nodes().size() == nodes;
        return String.format(Locale.ROOT, "coordinator restart: stopped while %s shuffled, started again after 5 s;"
                + " all %d proxies re-registered %.1f s after the restart (%s in /api/v1/status); the job finished"
                + " %.1f s after the stop (%.1f s wall) with the reference output", job.jobId(), nodes,
                reRegisterMillis / 1000.0, listed ? "listed" : "NOT listed", outage / 1000.0, wall / 1000.0);
    }

    private static void check(FileSystem fs, org.apache.hadoop.fs.Path dir, OutputDigest reference, PairRun r)
            throws Exception {
        OutputDigest got = OutputDigest.of(fs, dir);
        if (!reference.equals(got)) {
            throw new IllegalStateException("repeat " + r.repeat() + " under " + r.scheduler() + ": " + dir
                    + " differs from the reference: " + reference.differences(got));
        }
    }

    private static void requireOk(JobRun run) {
        if (!run.succeeded()) {
            throw new IllegalStateException(run.name() + " failed: " + run);
        }
    }

    private void summarize(List<PairRun> runs) {
        String baseline = schedulers.get(0);
        long contended = runs.stream().filter(r -> r.largeAfterSmall() > 0).count();
        out.println();
        out.printf(Locale.ROOT, "the large shuffle outlasted the small one in %d of %d runs%n", contended, runs.size());
        out.println("per scheduler, ratio to " + baseline + " in the same repeat     median    min    max");
        for (String s : schedulers.subList(1, schedulers.size())) {
            List<Double> smallJob = new ArrayList<>();
            List<Double> smallShuffle = new ArrayList<>();
            List<Double> largeJob = new ArrayList<>();
            for (int i = 0; i < repeats; i++) {
                PairRun b = find(runs, i, baseline);
                PairRun x = find(runs, i, s);
                smallJob.add((double) x.smallWall() / b.smallWall());
                smallShuffle.add((double) x.small().maxShuffleMillis() / Math.max(1, b.small().maxShuffleMillis()));
                largeJob.add((double) x.largeWall() / b.largeWall());
            }
            printRatio(s + ": small job time", smallJob);
            printRatio(s + ": small shuffle (slowest)", smallShuffle);
            printRatio(s + ": large job time", largeJob);
        }
    }

    private static PairRun find(List<PairRun> runs, int repeat, String scheduler) {
        for (PairRun r : runs) {
            if (r.repeat() == repeat && r.scheduler().equals(scheduler)) {
                return r;
            }
        }
        throw new IllegalStateException("no run of " + scheduler + " in repeat " + repeat);
    }

    private void printRatio(String name, List<Double> v) {
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        out.printf(Locale.ROOT, "%-56s %7.3f %6.3f %6.3f%n", name, Medians.of(s), s[0], s[s.length - 1]);
    }
}
