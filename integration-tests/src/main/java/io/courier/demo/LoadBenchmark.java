package io.courier.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.courier.it.ExampleJobs;
import io.courier.it.JobRun;
import io.courier.it.MiniCourierCluster;
import io.courier.it.NodeShuffleService;
import io.courier.it.OutputDigest;
import io.courier.it.ProxyStats;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Load on the mini cluster (issue "Hardening"): {@code --jobs} tiny TeraSorts with {@code --reduces} reducers each
 * submitted at once with the Courier shuffle (optionally the same batch with the stock shuffle after it, side by
 * side). Every output must equal the reference (one stock TeraSort of the same input, TeraValidate-checked).
 * Reports the batch's wall time, per-job times, failed task attempts, Courier's counters, the proxy connections
 * opened and the load average. A benchmark ({@code bin/courier load-bench}), not a CI test.
 */
@Command(name = "load-bench", mixinStandardHelpOptions = true,
        description = "Many concurrent tiny TeraSorts with many reducers through the Courier proxies.")
public final class LoadBenchmark implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--jobs", description = "Concurrent jobs (default: ${DEFAULT-VALUE}).")
    int jobs = 20;

    @Option(names = "--reduces", description = "Reducers per job (default: ${DEFAULT-VALUE}).")
    int reduces = 8;

    @Option(names = "--rows", description = "Rows of the shared input (default: ${DEFAULT-VALUE}).")
    long rows = 4_000;

    @Option(names = "--maps", description = "Maps per job (input files) (default: ${DEFAULT-VALUE}).")
    int maps = 2;

    @Option(names = "--nodes", description = "NodeManagers (default: ${DEFAULT-VALUE}).")
    int nodes = 3;

    @Option(names = "--nm-memory-mb", description = "Memory per NodeManager (default: ${DEFAULT-VALUE}).")
    int nmMemory = 6144;

    @Option(names = "--max-shuffle-connections", description = "Hadoop's mapreduce.shuffle.max.connections on every"
            + " NodeManager: the stock ShuffleHandler answers 429 beyond it, Courier's proxy refuses task connections"
            + " beyond it (OVERLOADED; reducers back off). Default: Hadoop's, 0 = no cap.")
    int maxShuffleConnections;

    @Option(names = "--stock", description = "Also run the batch with the stock shuffle, after the Courier one.")
    boolean stock;

    @Option(names = "--work-dir", description = "Cluster data and logs (default: ${DEFAULT-VALUE}).")
    Path workDir = Path.of("target", "load-bench");

    private final PrintStream out;

    LoadBenchmark(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadBenchmark(System.out)).execute(args));
    }

    /** One batch: every job's run as the history shows it, and the batch's wall time and load. */
    private record Batch(String shuffle, long wallMillis, List<Long> jobWalls, List<JobRun> runs,
                         ProxyStats proxies, int mismatches, String loadBefore, String loadAfter) {
        long failedAttempts() {
            return runs.stream().mapToLong(r -> r.failedAttempts().size()).sum();
        }

        long courier(String counter) {
            return runs.stream().mapToLong(r -> r.courier(counter)).sum();
        }

        String line() {
            double[] walls = jobWalls.stream().mapToDouble(w -> w / 1000.0).sorted().toArray();
            long ok = runs.stream().filter(JobRun::succeeded).count();
            return String.format(Locale.ROOT, "%-7s %d/%d jobs succeeded (history of %d), %d outputs differ; batch"
                    + " %.1f s; job median %.1f s (min %.1f, max %.1f); failed task attempts %d; PROXY_BYTES %,d,"
                    + " HTTP_FALLBACK_BYTES %,d, OVERLOAD_BACKOFFS %,d; proxy connections opened %d (max per node"
                    + " pair %d); load %s -> %s",
                    shuffle, ok, jobWalls.size(), runs.size(), mismatches, wallMillis / 1000.0, Medians.of(walls),
                    walls[0], walls[walls.length - 1], failedAttempts(), courier("PROXY_BYTES"),
                    courier("HTTP_FALLBACK_BYTES"), courier("OVERLOAD_BACKOFFS"), proxies.connectionsOpened(), proxies.maxConnectionsPerPair(), loadBefore, loadAfter);
        }
    }

    @Override
    public Integer call() throws Exception {
        new OptionChecks(spec).atLeast("--jobs", jobs, 1).atLeast("--reduces", reduces, 1).atLeast("--rows", rows, 1)
                .atLeast("--maps", maps, 1).atLeast("--nodes", nodes, 1).atLeast("--nm-memory-mb", nmMemory, 1)
                .atLeast("--max-shuffle-connections", maxShuffleConnections, 0);
        Files.createDirectories(workDir);
        Path logFile = workDir.resolve("load-bench.log").toAbsolutePath();
        DemoLogging.toFile(logFile);
        System.setOut(new PrintStream(Files.newOutputStream(workDir.resolve("load-bench.stdout.log")), true,
                StandardCharsets.UTF_8));
        Map<String, String> nodeSettings = new LinkedHashMap<>();
        nodeSettings.put("yarn.minicluster.yarn.nodemanager.resource.memory-mb", String.valueOf(nmMemory));
        // Many jobs at once: let ApplicationMasters take half the cluster instead of the default 10%.
        nodeSettings.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        // Tiny tasks: 256 MB containers, so that more of them fit.
        nodeSettings.put("mapreduce.map.memory.mb", "256");
        nodeSettings.put("mapreduce.reduce.memory.mb", "256");
        nodeSettings.put("mapreduce.map.java.opts", "-Xmx180m");
        nodeSettings.put("mapreduce.reduce.java.opts", "-Xmx180m");
        if (maxShuffleConnections > 0) {
            nodeSettings.put("mapreduce.shuffle.max.connections", String.valueOf(maxShuffleConnections));
        }
        out.printf(Locale.ROOT, "# %s: %d concurrent TeraSorts of %,d rows (%d maps, %d reducers each), %d"
                + " NodeManagers of %d MB, mapreduce.shuffle.max.connections %d; logs %s; load %s%n", Instant.now(),
                jobs, rows, maps, reduces, nodes, nmMemory, maxShuffleConnections, logFile, load());
        List<Batch> batches = new ArrayList<>();
        try (MiniCourierCluster cluster = MiniCourierCluster.start("load-bench", nodes, NodeShuffleService.COURIER,
                workDir.resolve("cluster"), nodeSettings)) {
            ExampleJobs ex = new ExampleJobs(cluster);
            FileSystem fs = cluster.fileSystem();
            org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/load/in");
            requireOk(ex.teraGen(rows, maps, in));
            OutputDigest reference = new TeraSortRunner(cluster).sort(false, reduces, in,
                    new org.apache.hadoop.fs.Path("/load/reference"), true).output();
            batches.add(batch(true, cluster, ex, in, reference));
            out.println(batches.get(0).line());
            if (stock) {
                batches.add(batch(false, cluster, ex, in, reference));
                out.println(batches.get(1).line());
                out.printf(Locale.ROOT, "batch wall time Courier/stock: %.2f%n",
                        (double) batches.get(0).wallMillis() / batches.get(1).wallMillis());
            }
        }
        boolean ok = batches.stream().allMatch(b -> b.mismatches() == 0 && b.runs().size() == jobs
                && b.runs().stream().allMatch(JobRun::succeeded));
        return ok ? 0 : 1;
    }

    private Batch batch(boolean courier, MiniCourierCluster cluster, ExampleJobs ex, org.apache.hadoop.fs.Path in,
            OutputDigest reference) throws Exception {
        String name = courier ? "Courier" : "stock";
        FileSystem fs = cluster.fileSystem();
        for (int j = 0; j < jobs; j++) {
            fs.delete(out(name, j), true);
        }
        String loadBefore = load();
        ProxyStats before = ProxyStats.capture(cluster);
        Set<String> historyBefore = ex.history().snapshot();
        // Every job is submitted from its own thread at once: the submissions (input sampling, staging uploads)
        // overlap as the jobs do. The pool is this method's and is shut down before it returns.
        ExecutorService clients = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "load-client");
            t.setDaemon(true);
            return t;
        });
        long t0 = System.nanoTime();
        List<Future<Long>> walls = new ArrayList<>();
        try {
            for (int j = 0; j < jobs; j++) {
                JobConf conf = cluster.measuredJobConf(courier);
                conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
                conf.setNumReduceTasks(reduces);
                // No JobHistoryServer runs: with its address empty, a client asking for its job's final state
                // after the AM exited gets it from the ResourceManager instead of retrying 0.0.0.0:10020 until it
                // gives up (the "job client failed: ConnectException" of earlier runs, for jobs that succeeded).
                conf.set("mapreduce.jobhistory.address", "");
                org.apache.hadoop.fs.Path o = out(name, j);
                walls.add(clients.submit(() -> {
                    long s0 = System.nanoTime();
                    int rc = ToolRunner.run(conf, new TeraSort(), new String[] {in.toString(), o.toString()});
                    return rc == 0 ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - s0) : -1L;
                }));
            }
            List<Long> jobWalls = new ArrayList<>();
            for (Future<Long> f : walls) {
                try {
                    jobWalls.add(f.get(60, TimeUnit.MINUTES));
                } catch (ExecutionException e) {
                    jobWalls.add(-1L);
                    out.println(name + " job client failed: " + e.getCause());
                }
            }
            long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            ProxyStats proxies = ProxyStats.capture(cluster).minus(before);
            String loadAfter = load();
            List<JobRun> runs = new ArrayList<>();
            for (String id : newJobIds(ex, historyBefore)) {
                runs.add(ex.history().awaitJob(id, 0, 120_000));
            }
            int mismatches = 0;
            for (int j = 0; j < jobs; j++) {
                try {
                    OutputDigest got = OutputDigest.of(fs, out(name, j));
                    if (!reference.equals(got)) {
                        mismatches++;
                        out.println(name + " job " + j + " differs from the reference: "
                                + reference.differences(got));
                    }
                } catch (java.io.IOException e) {
                    mismatches++;
                    out.println(name + " job " + j + " has no readable output: " + e);
                }
            }
            return new Batch(name, wall, jobWalls, runs, proxies, mismatches, loadBefore, loadAfter);
        } finally {
            clients.shutdownNow();
        }
    }

    /** The ids of the jobs whose history files appeared since {@code before} (waits up to 2 min for all). */
    private List<String> newJobIds(ExampleJobs ex, Set<String> before) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            Set<String> ids = new TreeSet<>();
            for (String f : ex.history().snapshot()) {
                if (!before.contains(f) && f.startsWith("job_") && f.indexOf('-') > 0) {
                    ids.add(f.substring(0, f.indexOf('-')));
                }
            }
            if (ids.size() >= jobs || System.nanoTime() > deadline) {
                return new ArrayList<>(ids);
            }
            Thread.sleep(500); // the AMs move their history files into place on their own schedule
        }
    }

    private static org.apache.hadoop.fs.Path out(String shuffle, int job) {
        return new org.apache.hadoop.fs.Path("/load/" + shuffle + "-" + job);
    }

    private static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static void requireOk(JobRun run) {
        if (!run.succeeded()) {
            throw new IllegalStateException(run.name() + " failed: " + run);
        }
    }
}
