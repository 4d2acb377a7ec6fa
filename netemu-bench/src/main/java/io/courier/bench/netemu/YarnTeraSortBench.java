package io.courier.bench.netemu;

import io.courier.it.ExampleJobs;
import io.courier.it.JobHistoryReader;
import io.courier.it.JobRun;
import io.courier.it.OutputDigest;

import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The end-to-end benchmark on the YARN cluster of {@code bench/netemu/yarn-cluster.sh}: TeraGen once, then per
 * repeat a TeraSort with the stock shuffle and one with Courier over the same input (order alternating: S C, C S,
 * ...), each followed by TeraValidate and a byte comparison with the first output. Per job it records what
 * {@link BenchRunner} records per coflow (switch drops, TCP counters summed over hosts, connections, CPU, the idle
 * check), and the job's and its shuffle's time from the job history. Runs in host 1's namespace (the cluster's
 * addresses are reachable only there); one thread drives everything, the connection sampler has its own.
 */
final class YarnTeraSortBench {
    private static final String IN = "/bench/tera-in";

    private final Testbed testbed;
    private final JobConf conf;
    private final List<Long> nodeManagerPids;
    private final List<Long> daemonPids;
    private final int cpus = Runtime.getRuntime().availableProcessors();
    private final FileSystem fs;
    private final JobHistoryReader history;
    private OutputDigest referenceDigest;
    private String referenceChecksum;

    /**
     * @param nodeManagerPids the NodeManager of host 1..N, in host order (their namespaces' /proc/net/tcp)
     * @param daemonPids      every daemon of the cluster (their CPU is not foreign load)
     */
    YarnTeraSortBench(Testbed testbed, JobConf conf, List<Long> nodeManagerPids, List<Long> daemonPids)
            throws IOException {
        this.testbed = testbed;
        this.conf = conf;
        this.nodeManagerPids = List.copyOf(nodeManagerPids);
        this.daemonPids = List.copyOf(daemonPids);
        this.fs = FileSystem.get(conf);
        this.history = new JobHistoryReader(fs, conf);
    }

    /** Waits until HDFS has left safe mode with every DataNode live and every NodeManager runs. */
    void awaitCluster(int hosts, long timeoutMillis) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        DistributedFileSystem dfs = (DistributedFileSystem) fs;
        String state = "";
        try (YarnClient yarn = YarnClient.createYarnClient()) {
            yarn.init(conf);
            yarn.start();
            while (true) {
                int live = dfs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length;
                boolean safe = dfs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_GET);
                int nms = yarn.getNodeReports(NodeState.RUNNING).size();
                state = live + "/" + hosts + " DataNodes live, safe mode " + (safe ? "on" : "off") + ", " + nms
                        + "/" + hosts + " NodeManagers running";
                if (live >= hosts && !safe && nms >= hosts) {
                    System.out.println("yarn-terasort: cluster up: " + state);
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("cluster not up after " + timeoutMillis / 1000 + " s: " + state);
                }
                Thread.sleep(1000);
            }
        }
    }

    /** TeraGen of {@code rows} 100-byte rows by {@code maps} maps (spread over the DataNodes). */
    JobRun teraGen(long rows, int maps) throws Exception {
        fs.delete(new Path(IN), true);
        JobConf c = new JobConf(conf);
        c.setInt("mapreduce.job.maps", maps);
        JobRun run = runTool("TeraGen", c, new TeraGen(), String.valueOf(rows), IN);
        if (!run.succeeded()) {
            throw new IllegalStateException("TeraGen failed: " + run);
        }
        return run;
    }

    /**
     * The whole plan: {@code warmups} unrecorded pairs, then {@code repeats} pairs, stock and Courier alternating
     * which goes first; {@code sink} gets every record as soon as it exists.
     */
    List<YarnRunRecord> runAll(int repeats, int warmups, int reduces, Consumer<YarnRunRecord> sink) throws Exception {
        List<YarnRunRecord> all = new ArrayList<>();
        for (int w = 0; w < warmups; w++) {
            for (Mode m : new Mode[] {Mode.STOCK, Mode.COURIER}) {
                YarnRunRecord r = run(m, -1 - w, reduces);
                System.out.println("yarn-terasort: warm-up " + m + " " + r.jobSec() + " s (not recorded)");
            }
        }
        for (int rep = 0; rep < repeats; rep++) {
            Mode[] order = rep % 2 == 0 ? new Mode[] {Mode.STOCK, Mode.COURIER} : new Mode[] {Mode.COURIER, Mode.STOCK};
            for (Mode m : order) {
                YarnRunRecord r = run(m, rep, reduces);
                System.out.printf("yarn-terasort: repeat %d %-7s job %.1f s, shuffle %.1f s, drops %d, retrans %d,"
                        + " RTOs %d, max conns/host %d (shuffle %d, per pair %d), %s%n", rep, r.mode(), r.jobSec(),
                        r.shuffleMaxSec(), r.switchDrops(), r.retransSegs(), r.timeouts(), r.maxConnPerHost(),
                        r.maxShuffleConnPerHost(), r.maxShuffleConnPerPair(),
                        r.valid() ? "valid" : "INVALID: " + r.invalidReasons());
                all.add(r);
                sink.accept(r);
            }
        }
        return all;
    }

    private YarnRunRecord run(Mode mode, int repeat, int reduces) throws Exception {
        int hosts = testbed.hosts();
        // Idle check: CPU over one-second windows before the job of everything but our cluster's processes
        // (daemons, and containers still exiting: every process in our host namespaces), waiting for a quiet one.
        IdleGate.Reading idle = BenchRunner.IDLE_GATE.await(IdleGate.machineWindow(this::ourProcesses, cpus));
        double otherBefore = idle.foreignCores;
        if (idle.windows > 1) {
            System.out.printf("yarn-terasort: waited %d s for the host to go idle before %s #%d (last window: %.2f "
                    + "foreign cores)%n", idle.windows - 1, mode, repeat, otherBefore);
        }
        double load = Testbed.loadavg1();

        Path out = new Path("/bench/tera-out-" + mode.name().toLowerCase() + "-" + (repeat < 0 ? "w" + -repeat
                : String.valueOf(repeat)));
        fs.delete(out, true);
        JobConf c = new JobConf(conf);
        if (mode == Mode.COURIER) {
            c.set(YarnClusterConf.CONSUMER_KEY, YarnClusterConf.COURIER_CONSUMER);
        } else {
            c.unset(YarnClusterConf.CONSUMER_KEY);
        }
        c.setNumReduceTasks(reduces);
        c.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);

        TcQdiscStats sw0 = testbed.switchPorts();
        HostCounters counters0 = readCounters();
        ConnectionSampler sampler = new ConnectionSampler(testbed, nodeManagerPids, java.util.Set.of(),
                java.util.Set.of(mode.servicePort()));
        String startedAt = Instant.now().toString();
        CpuTimes cpu0 = Testbed.cpu();
        long daemonTicks0 = Testbed.ticksOf(daemonPids);
        sampler.start();
        JobRun sort;
        try {
            sort = runTool("TeraSort", c, new TeraSort(), IN, out.toString());
        } finally {
            sampler.stop();
        }
        CpuTimes cpu1 = Testbed.cpu();
        long daemonTicks1 = Testbed.ticksOf(daemonPids);
        TcQdiscStats sw = testbed.switchPorts().minus(sw0);
        HostCounters.Totals net = readCounters().since(counters0);
        long retrans = net.retrans();
        long timeouts = net.timeouts();
        long syn = net.syn();
        long probes = net.probes();
        long opens = net.opens();
        long nicDrops = net.nicDrops();

        List<String> invalid = new ArrayList<>();
        if (otherBefore >= BenchRunner.IDLE_OTHER_CORES) {
            invalid.add(String.format("under load: %.2f foreign cores before the run (loadavg %.2f)", otherBefore,
                    load));
        }
        if (nicDrops > 0) {
            invalid.add(nicDrops + " host NIC drops (the switch must be the only bottleneck)");
        }
        if (sampler.error() != null) {
            invalid.add("connection sampling failed: " + sampler.error());
        }
        boolean validated = false;
        boolean matches = false;
        String checksum = "";
        if (!sort.succeeded()) {
            invalid.add("TeraSort " + sort.jobId() + " " + sort.status() + ": " + sort.errorInfo());
        } else {
            if (mode == Mode.COURIER && !sort.hasCourierCounters()) {
                invalid.add("Courier run without Courier counters: the consumer plugin did not run");
            }
            if (mode == Mode.STOCK && sort.hasCourierCounters()) {
                invalid.add("stock run has Courier counters");
            }
            if (!sort.failedAttempts().isEmpty()) {
                invalid.add(sort.failedAttempts().size() + " failed attempts, first: "
                        + sort.failedAttempts().get(0).error());
            }
            ExampleJobs.TeraReport report = teraValidate(out);
            checksum = report.checksum() == null ? "" : report.checksum();
            if (referenceChecksum == null && report.valid()) {
                referenceChecksum = checksum;
            }
            validated = report.valid() && checksum.equals(referenceChecksum);
            if (!validated) {
                invalid.add("TeraValidate: " + (report.valid() ? "checksum " + checksum + " differs from the first"
                        + " run's " + referenceChecksum : report.problems()));
            }
            OutputDigest digest = OutputDigest.of(fs, out);
            if (referenceDigest == null) {
                referenceDigest = digest;
            }
            matches = digest.equals(referenceDigest);
            if (!matches) {
                invalid.add("output differs from the first run's (" + digest.bytes() + " vs "
                        + referenceDigest.bytes() + " bytes)");
            }
        }
        fs.delete(out, true);
        long dt = Math.max(1, cpu1.total() - cpu0.total());
        return new YarnRunRecord(repeat, mode.name().toLowerCase(), sort.jobId(), startedAt,
                sort.wallMillis() / 1000.0, sort.maxShuffleMillis() / 1000.0, sort.totalShuffleMillis() / 1000.0,
                sort.shuffleBytes(), sort.successful(TaskType.MAP).size(), sort.successful(TaskType.REDUCE).size(),
                sort.failedAttempts().size(), sw.totalDrops(), sw.totalPackets(), nicDrops, retrans, timeouts, syn,
                probes, opens, sampler.maxOverHosts(), sampler.maxPerPair(), sampler.maxShuffleOverHosts(),
                sampler.maxShufflePerPair(), cpu1.busyCoresSince(cpu0, cpus),
                cpu1.softirqCoresSince(cpu0, cpus), cpus * (double) (daemonTicks1 - daemonTicks0) / dt, otherBefore,
                load, validated, checksum, matches, invalid.isEmpty(), invalid);
    }

    /** TeraValidate of {@code sorted} (inside its ApplicationMaster: not a shuffle under test). */
    private ExampleJobs.TeraReport teraValidate(Path sorted) throws Exception {
        Path report = new Path(sorted.getParent(), sorted.getName() + "-validate");
        fs.delete(report, true);
        JobConf c = new JobConf(conf);
        c.setBoolean("mapreduce.job.ubertask.enable", true);
        c.setInt("mapreduce.job.ubertask.maxmaps", 64);
        JobRun v = runTool("TeraValidate", c, new TeraValidate(), sorted.toString(), report.toString());
        if (!v.succeeded()) {
            return new ExampleJobs.TeraReport(null, List.of("TeraValidate job " + v.jobId() + " " + v.status()));
        }
        ExampleJobs.TeraReport r = ExampleJobs.readTeraReport(fs, report);
        fs.delete(report, true);
        return r;
    }

    /** Runs a Tool that submits exactly one job, and returns that job as its history records it. */
    private JobRun runTool(String label, JobConf c, Tool tool, String... args) throws Exception {
        Set<String> before = history.snapshot();
        long t0 = System.nanoTime();
        int rc = ToolRunner.run(c, tool, args);
        long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        JobRun run = history.awaitNew(before, label, wall, 120_000);
        if ((rc == 0) != run.succeeded()) {
            throw new IllegalStateException(label + " exited with " + rc + " but its history says " + run);
        }
        return run;
    }

    /** Every process in one of our host namespaces (daemons and containers), from {@code ip netns pids}. */
    private List<Long> ourProcesses() throws IOException {
        Set<Long> pids = new HashSet<>(daemonPids);
        for (int h = 1; h <= testbed.hosts(); h++) {
            for (String p : Testbed.exec("ip", "netns", "pids", testbed.hostNs(h)).split("\\s+")) {
                if (!p.isBlank()) {
                    pids.add(Long.parseLong(p.trim()));
                }
            }
        }
        return new ArrayList<>(pids);
    }

    /** Reads the daemon PID file of yarn-cluster.sh: lines {@code <pid> <role> <host>}. */
    static List<String[]> readPidFile(java.nio.file.Path file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file)) {
            n++;
            String t = line.trim();
            if (t.isEmpty()) {
                continue;
            }
            String[] f = t.split("\\s+");
            if (f.length != 3 || !f[0].matches("\\d+") || !f[2].matches("\\d+")) {
                throw new IOException(file + " line " + n + ": expected '<pid> <role> <host>', got '" + line + "'");
            }
            rows.add(f);
        }
        return rows;
    }

    private HostCounters readCounters() throws java.io.IOException {
        List<NstatCounters> nstat = new ArrayList<>();
        List<TcQdiscStats> nics = new ArrayList<>();
        for (int h = 1; h <= testbed.hosts(); h++) {
            nstat.add(testbed.nstat(h));
            nics.add(testbed.hostNic(h));
        }
        return new HostCounters(nstat, nics);
    }
}
