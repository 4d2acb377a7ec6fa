package io.courier.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.courier.coordinator.client.Mode;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.it.ExampleJobs;
import io.courier.it.JobRun;
import io.courier.it.MiniCourierCluster;
import io.courier.it.NodeShuffleService;
import io.courier.it.OutputDigest;
import io.courier.shuffle.coordination.ProxyCoordination;
import io.courier.shuffle.nm.CourierShuffleHandler;
import io.courier.shuffle.nm.PortPairPicker;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Coordinator chaos on the mini cluster (issue "Hardening"): the NodeManagers' proxies follow a primary
 * coordinator with a standby ({@code courier.coordinator.address=primary,standby}); {@code jobs} TeraSorts run at
 * once with the Courier shuffle, first with the coordinators left alone (the baseline, whose outputs are the
 * references: all equal, and one TeraValidate-checked), then {@code rounds} times while a {@link ChaosMonkey}
 * stops and restarts the primary over and over. Every chaos output must equal the reference; after the chaos the
 * proxies must be COORDINATED again and listed by the primary; the longest stretch without job progress is
 * measured in both phases. One thread runs it; it owns the cluster and both coordinators.
 */
final class CoordinatorChaosRun {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorChaosRun.class);

    /** What to run. {@code capacity}: each proxy's paced link, bytes/s, so that shuffles last long enough to hit. */
    record Settings(int nodes, int jobs, long rows, int reduces, int rounds, long upMillis, long downMillis,
                    String scheduler, long capacity, long epochMillis, Path workDir) {
        Settings {
            if (jobs < 1 || rounds < 1 || rows < 1 || reduces < 1 || nodes < 2) {
                throw new IllegalArgumentException("chaos settings need jobs, rounds, rows, reduces >= 1 and"
                        + " nodes >= 2: " + this);
            }
            if (downMillis < 1 || upMillis < 1) {
                throw new IllegalArgumentException("up and down times must be positive: " + this);
            }
        }
    }

    /**
     * One phase: the jobs' wall times, the longest job and shuffle stalls (see {@link ProgressMonitor}), and the
     * time the proxies spent in FALLBACK.
     */
    record Phase(String name, List<Long> jobMillis, long longestStallMillis, long longestShuffleStallMillis,
                 long bytesRelayed, double shuffleActiveFraction, long shuffleSamplesInOutage,
                 double fallbackFraction, List<ChaosMonkey.Outage> outages) {
        long maxJobMillis() {
            return jobMillis.stream().mapToLong(Long::longValue).max().orElse(0);
        }

        String line() {
            return String.format(Locale.ROOT, "%-9s jobs %s s (max %.1f s); longest stall %.1f s, of the shuffle"
                    + " %.1f s (%,d bytes relayed, streams open in %.0f%% of samples, %d of them during an outage); proxies in FALLBACK %.0f%% of"
                    + " samples; primary stopped %d times (outages %s ms)", name,
                    seconds(jobMillis), maxJobMillis() / 1000.0, longestStallMillis / 1000.0,
                    longestShuffleStallMillis / 1000.0, bytesRelayed, shuffleActiveFraction * 100, shuffleSamplesInOutage,
                    fallbackFraction * 100,
                    outages.size(), outages.stream().map(o -> String.valueOf(o.millis())).toList());
        }

        private static List<String> seconds(List<Long> millis) {
            return millis.stream().map(m -> String.format(Locale.ROOT, "%.1f", m / 1000.0)).toList();
        }
    }

    /** Everything measured. {@code convergeMillis}: from the chaos's end until all proxies were coordinated. */
    record Result(Phase baseline, List<Phase> chaos, long convergeMillis, int primaryNodes, int standbyNodes,
                  List<String> modesAfter, boolean outputsMatch) {
        long longestChaosStallMillis() {
            return chaos.stream().mapToLong(Phase::longestStallMillis).max().orElse(0);
        }

        long longestChaosShuffleStallMillis() {
            return chaos.stream().mapToLong(Phase::longestShuffleStallMillis).max().orElse(0);
        }

        int stops() {
            return chaos.stream().mapToInt(p -> p.outages().size()).sum();
        }
    }

    private final Settings s;

    CoordinatorChaosRun(Settings settings) {
        this.s = settings;
    }

    Result run() throws Exception {
        // Outside the kernel's ephemeral range: the primary's port is free for seconds at every outage, while the
        // cluster's many outgoing connections draw their local ports from that range (one landing on it would fail
        // the restart). The standby binds before the primary's port is drawn, so the two cannot be the same.
        int standbyPort = PortPairPicker.pick(0);
        InProcessCoordinator standby = InProcessCoordinator.start(s.scheduler(), standbyPort, s.epochMillis());
        InProcessCoordinator primary = null;
        try {
            int primaryPort = PortPairPicker.pick(0);
            Map<String, String> nodeSettings = nodeSettings(primaryPort, standbyPort);
            primary = InProcessCoordinator.start(s.scheduler(), primaryPort, s.epochMillis());
            try (MiniCourierCluster cluster = MiniCourierCluster.start("coordinator-chaos", s.nodes(),
                    NodeShuffleService.COURIER, s.workDir().resolve("cluster"), nodeSettings)) {
                primary.awaitNodes(s.nodes(), 120_000);
                ExampleJobs jobs = new ExampleJobs(cluster);
                FileSystem fs = cluster.fileSystem();
                org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/chaos/in");
                requireOk(jobs.teraGen(s.rows(), 3, in));

                Phase baseline = runJobs("baseline", cluster, in, "base", null).phase();
                OutputDigest reference = OutputDigest.of(fs, out("base", 0));
                for (int j = 1; j < s.jobs(); j++) {
                    requireEqual(reference, OutputDigest.of(fs, out("base", j)), "baseline job " + j);
                }
                validate(jobs, fs, out("base", 0));
                LOG.info("chaos: {}", baseline.line());

                List<Phase> chaos = new ArrayList<>();
                boolean match = true;
                for (int r = 0; r < s.rounds(); r++) {
                    ChaosMonkey monkey = ChaosMonkey.start(primary, s.scheduler(), primaryPort, s.epochMillis(),
                            s.upMillis(), s.downMillis());
                    primary = null;
                    PhaseRun run;
                    try {
                        run = runJobs("chaos-" + r, cluster, in, "chaos" + r, monkey);
                    } finally {
                        primary = monkey.stop();
                    }
                    chaos.add(run.phase());
                    LOG.info("chaos: {}", run.phase().line());
                    for (int j = 0; j < s.jobs(); j++) {
                        OutputDigest got = OutputDigest.of(fs, out("chaos" + r, j));
                        if (!reference.equals(got)) {
                            match = false;
                            LOG.error("chaos round {} job {}: output differs from the reference: {}", r, j,
                                    reference.differences(got));
                        }
                    }
                }
                long t0 = System.nanoTime();
                List<String> modes = awaitCoordinated(cluster, primary, 60_000);
                long converge = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                return new Result(baseline, chaos, converge, primary.status().nodes().size(),
                        standby.status().nodes().size(), modes, match);
            }
        } finally {
            if (primary != null) {
                primary.close();
            }
            standby.close();
        }
    }

    private record PhaseRun(Phase phase) { }

    private PhaseRun runJobs(String name, MiniCourierCluster cluster, org.apache.hadoop.fs.Path in, String tag,
            ChaosMonkey monkey) throws Exception {
        FileSystem fs = cluster.fileSystem();
        List<BackgroundTeraSort> running = new ArrayList<>();
        try {
            for (int j = 0; j < s.jobs(); j++) {
                fs.delete(out(tag, j), true);
                JobConf conf = cluster.measuredJobConf(true);
                // Reducers start with the maps, so they fetch each map output as soon as it exists. (The shuffle
                // still takes only a small part of a job: the paced capacity is what stretches it over outages.)
                conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 0.0f);
                running.add(BackgroundTeraSort.submit(conf, s.reduces(), in, out(tag, j)));
            }
            List<Long> walls = new ArrayList<>();
            ProgressMonitor monitor = ProgressMonitor.start(running, cluster, 250,
                    monkey == null ? () -> false : monkey::primaryDown);
            try {
                for (BackgroundTeraSort job : running) {
                    walls.add(job.await());
                }
            } finally {
                monitor.close();
            }
            List<ChaosMonkey.Outage> outages = monkey == null ? List.of() : monkey.outages();
            return new PhaseRun(new Phase(name, walls, monitor.longestStallMillis(),
                    monitor.longestShuffleStallMillis(), monitor.bytesRelayed(), monitor.fractionWithOpenStreams(),
                    monitor.samplesWithOpenStreamsInOutage(),
                    monitor.fractionIn(Mode.FALLBACK), outages));
        } finally {
            for (BackgroundTeraSort job : running) {
                if (!job.exited()) {
                    try {
                        job.await();
                    } catch (Exception e) {
                        LOG.warn("{} did not end cleanly: {}", job.jobId(), e.toString());
                    }
                }
            }
        }
    }

    /** Waits until every proxy is COORDINATED and the primary lists them all; returns each proxy's mode. */
    private List<String> awaitCoordinated(MiniCourierCluster cluster, InProcessCoordinator primary,
            long timeoutMillis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            List<String> modes = new ArrayList<>();
            boolean all = true;
            for (int i = 0; i < cluster.nodeManagerCount(); i++) {
                ProxyCoordination c = ((CourierShuffleHandler) cluster.auxService(i)).coordination();
                Mode m = c == null ? null : c.mode();
                modes.add("nm" + i + "=" + m);
                all &= m == Mode.COORDINATED;
            }
            CoordinatorStatus status = primary.status();
            if (all && status.nodes().size() == cluster.nodeManagerCount()) {
                return modes;
            }
            if (System.nanoTime() > deadline) {
                return modes;
            }
            Thread.sleep(250); // polling the proxies' client state: nothing to wait on
        }
    }

    private static void validate(ExampleJobs jobs, FileSystem fs, org.apache.hadoop.fs.Path sorted) throws Exception {
        org.apache.hadoop.fs.Path report = new org.apache.hadoop.fs.Path(sorted.getParent(), sorted.getName()
                + "-validate");
        fs.delete(report, true);
        JobRun v = jobs.teraValidate(sorted, report);
        requireOk(v);
        ExampleJobs.TeraReport r = ExampleJobs.readTeraReport(fs, report);
        if (!r.valid()) {
            throw new IllegalStateException("TeraValidate found problems in the reference " + sorted + ": "
                    + r.problems());
        }
    }

    private static org.apache.hadoop.fs.Path out(String tag, int job) {
        return new org.apache.hadoop.fs.Path("/chaos/" + tag + "-" + job);
    }

    private static void requireEqual(OutputDigest reference, OutputDigest got, String what) {
        if (!reference.equals(got)) {
            throw new IllegalStateException(what + " sorted differently from baseline job 0: "
                    + reference.differences(got));
        }
    }

    private static void requireOk(JobRun run) {
        if (!run.succeeded()) {
            throw new IllegalStateException(run.name() + " failed: " + run);
        }
    }

    /** What the NodeManagers and jobs see: both coordinators, fast re-registration, room for all jobs at once. */
    private Map<String, String> nodeSettings(int primaryPort, int standbyPort) {
        Map<String, String> nodeSettings = new LinkedHashMap<>();
        nodeSettings.put("courier.coordinator.address", "127.0.0.1:" + primaryPort + ",127.0.0.1:" + standbyPort);
        nodeSettings.put("courier.proxy.capacity.bytes-per-second", String.valueOf(s.capacity()));
        nodeSettings.put("courier.coordinator.register-retry-ms", "500");
        // Return to the primary within a second of its restart, so that every outage is a full round trip.
        nodeSettings.put("courier.coordinator.primary-probe-ms", "1000");
        // Several jobs at once need more than 2 containers of 512 MB per NodeManager.
        // The jobs run at once, not one after the other: the capacity scheduler's default lets ApplicationMasters
        // take only 10% of the cluster.
        nodeSettings.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        // Room for every container of every job at once (an AM, 3 maps and the reducers, 512 MB each).
        nodeSettings.put("yarn.minicluster.yarn.nodemanager.resource.memory-mb",
                String.valueOf(Math.max(3072, (long) s.jobs() * (4 + s.reduces()) * 512 / s.nodes())));
        return nodeSettings;
    }
}
