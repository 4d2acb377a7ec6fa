package io.courier.bench.netemu;

import io.courier.demo.OptionChecks;
import io.courier.shuffle.reduce.ReduceConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Entry point of the emulated-network benchmark. {@code agent}: the process of one emulated host (started in its
 * namespace by {@code bench/netemu/netemu.sh start-agents}). {@code run}: the coordinator (root namespace), which
 * drives the agents and writes the report. Run through {@code bin/courier bench netemu}. {@code yarn-conf} and
 * {@code yarn-terasort}: the YARN cluster's configuration and its TeraSort benchmark, run by
 * {@code bench/netemu/yarn-cluster.sh}.
 */
@Command(name = "netemu-bench", mixinStandardHelpOptions = true, subcommands = {NetemuBench.Agent.class,
    NetemuBench.Run.class, NetemuBench.Receive.class, NetemuBench.YarnConf.class, NetemuBench.YarnTeraSort.class},
        description = "Stock Hadoop shuffle vs Courier on an emulated congested network.")
public final class NetemuBench implements Runnable {
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as {@code main} runs it (usage errors: one line naming the problem, exit 2). */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new NetemuBench());
        // A usage error names what is wrong and where the options are listed, without the whole option list.
        cl.setParameterExceptionHandler((ex, ignored) -> {
            CommandLine where = ex.getCommandLine();
            String command = launcherCommand(where.getCommandName());
            where.getErr().println(command + ": " + ex.getMessage() + " (see '" + command + " --help')");
            where.getErr().flush();
            return 2;
        });
        return cl;
    }

    /** The user-facing command that runs a subcommand, for error hints. */
    static String launcherCommand(String subcommand) {
        switch (subcommand) {
            case "run":
                return "bin/courier bench netemu";
            case "yarn-terasort":
                return "bin/courier bench netemu-yarn";
            case "receive":
                return "bin/courier bench receive";
            default:
                return "netemu-bench " + subcommand;
        }
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    /** One emulated host's JVM: shuffle service plus reducers. */
    @Command(name = "agent", description = "Serve map outputs and run reducers in one host namespace.")
    static final class Agent implements Callable<Integer> {
        @Option(names = "--host", required = true, description = "host number, 1..N")
        int host;
        @Option(names = "--ip", required = true, description = "this host's address")
        String ip;
        @Option(names = "--mgmt-ip", description = "this host's management address (coordinator traffic; default"
                + " --ip)")
        String mgmtIp;
        @Option(names = "--socket", required = true, description = "Unix control socket path")
        Path socket;
        @Option(names = "--dir", required = true, description = "work directory (map outputs, spills)")
        File dir;

        @Override
        public Integer call() throws Exception {
            new HostAgent(host, ip, mgmtIp, socket, dir).serve();
            return 0;
        }
    }

    /** The coordinator: runs the plan on the agents and writes CSV/JSON, summary.md and PNG plots. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run the benchmark on running agents and write the report.")
    static final class Run implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = "--check-options", hidden = true, description = "check the options and exit: netemu.sh"
                + " calls this before it builds the testbed")
        boolean checkOptions;
        @Option(names = "--hosts", required = true)
        int hosts;
        @Option(names = "--rate-mbit", required = true, description = "switch port rate (Mbit/s)")
        long rateMbit;
        @Option(names = "--socket-dir", required = true)
        Path socketDir;
        @Option(names = "--out", required = true)
        Path out;
        @Option(names = "--prefix", defaultValue = "cne-")
        String prefix;
        @Option(names = "--subnet", defaultValue = "10.201.0")
        String subnet;
        @Option(names = "--quick", description = "the short plan (< 10 min)")
        boolean quick;
        @Option(names = "--repeats", description = "repeats per mode and point, for every point"
                + " (default: full 5; quick 3, sweeps and mixed stream 2)")
        Integer repeats;
        @Option(names = "--warmups", defaultValue = "1")
        int warmups;
        @Option(names = "--families", split = ",", description = "small,bulk,fetch-sweep,reducer-sweep,"
                + "segment-sweep,mixed")
        List<String> families;
        @Option(names = "--trace", description = "FB trace (coflow-benchmark format) for the mixed stream")
        Path trace;
        @Option(names = "--mixed-coflows", description = "coflows in the mixed stream (default: quick 8, full 25)")
        Integer mixedCoflows;
        @Option(names = "--config", split = ",", description = "extra key=value lines for the report header")
        List<String> extra;
        @Option(names = "--modes", split = ",", defaultValue = "stock,courier,courier+coord",
                description = "modes to compare, run interleaved: stock, courier (no coordinator: Stream fallback),"
                        + " courier+coord (a coordinator running --coordinator-scheduler; default: all three)")
        List<String> modeNames;
        @Option(names = "--coordinator-scheduler", defaultValue = "varys",
                description = "the coordinator's scheduler in mode courier+coord (default varys)")
        String coordinatorScheduler;
        @Option(names = "--coordinator-epoch-ms", defaultValue = "10", description = "its epoch (default 10 ms)")
        long coordinatorEpochMillis;
        @Option(names = "--coordinator-port", defaultValue = "17410",
                description = "its Artery port on the management bridge (default 17410)")
        int coordinatorPort;
        @Option(names = "--coordinator-capacity", description = "port capacity the coordinator schedules, bytes/s"
                + " (default: the switch port's payload rate, rate/8 x 1448/1514)")
        Long coordinatorCapacity;
        @Option(names = "--coordination-timeout-s", defaultValue = "90",
                description = "how long every proxy may take to follow the coordinator before the run fails")
        int coordinationTimeoutSec;
        @Option(names = "--mgmt-subnet", defaultValue = "10.202.0",
                description = "management network (netemu.sh MGMT_SUBNET); the coordinator binds <subnet>.254")
        String mgmtSubnet;

        /** The modes of {@code --modes}; refuses bad names (picocli reports the exception). */
        List<Mode> modes() {
            return Mode.parseList(modeNames, coordinatorScheduler);
        }

        /**
         * Refuses, as a usage error (exit 2, the option named), what the run would otherwise refuse or silently skip
         * only after the testbed is up: bad counts, unknown modes, families or coordinator scheduler.
         */
        void checkOptions() {
            OptionChecks checks = new OptionChecks(spec).atLeast("--hosts", hosts, 2)
                    .atLeast("--rate-mbit", rateMbit, 1).atLeast("--warmups", warmups, 0);
            if (repeats != null) {
                checks.atLeast("--repeats", repeats, 1);
            }
            if (mixedCoflows != null) {
                checks.atLeast("--mixed-coflows", mixedCoflows, 1);
            }
            List<Mode> modes;
            try {
                Plans.families(families);
                modes = modes();
            } catch (IllegalArgumentException e) {
                throw checks.error(e.getMessage());
            }
            if (modes.contains(Mode.COURIER_COORD)) {
                checks.scheduler("--coordinator-scheduler", coordinatorScheduler)
                        .atLeast("--coordinator-epoch-ms", coordinatorEpochMillis, 1)
                        .atLeast("--coordination-timeout-s", coordinationTimeoutSec, 1);
                if (coordinatorCapacity != null) {
                    checks.atLeast("--coordinator-capacity", coordinatorCapacity, 1);
                }
            }
        }

        /** The port capacity given to the coordinator and the proxies, bytes/s. */
        long capacityBytesPerSec() {
            return coordinatorCapacity != null ? coordinatorCapacity
                    : (long) (rateMbit * 1_000_000L / 8.0 * BenchRunner.PAYLOAD_SHARE);
        }

        @Override
        public Integer call() throws Exception {
            checkOptions();
            if (checkOptions) {
                return 0;
            }
            List<Mode> modes = modes();
            Files.createDirectories(out);
            int reps = repeats != null ? repeats : quick ? 3 : 5;
            List<String> fams = Plans.families(families);
            int mixed = mixedCoflows != null ? mixedCoflows : quick ? 8 : 25;
            Testbed testbed = new Testbed(prefix, subnet, hosts);
            List<AgentClient> agents = BenchRunner.clients(socketDir, hosts);
            List<Long> pids = new ArrayList<>();
            for (AgentClient a : agents) {
                pids.add(a.call(AgentMessages.Request.simple(AgentMessages.Op.PING)).pid());
            }
            List<Scenario> scenarios = Plans.build(quick, hosts, rateMbit * 1_000_000L, trace, mixed, fams);
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("date", Instant.now().toString());
            config.put("hosts", hosts);
            config.put("switch port rate", rateMbit + " Mbit/s");
            config.put("plan", quick ? "quick" : "full");
            config.put("modes", modes.stream().map(m -> m.label(coordinatorScheduler)).toList());
            config.put("repeats per mode", reps);
            config.put("families", fams);
            config.put("cpus", Runtime.getRuntime().availableProcessors());
            config.put("loadavg at start", Testbed.loadavg1());
            putExtraLines(config, extra);
            Path csv = out.resolve("runs.csv");
            Files.deleteIfExists(csv);
            CoordinatorProcess coordinator = null;
            List<Long> coordinatorPids = new ArrayList<>();
            if (modes.contains(Mode.COURIER_COORD)) {
                coordinator = startCoordination(agents);
                coordinatorPids.add(coordinator.pid());
                config.put("coordinator", coordinator.scheduler() + " at " + coordinator.address() + ", epoch "
                        + coordinatorEpochMillis + " ms, port capacity " + capacityBytesPerSec()
                        + " B/s (proxies pace at the decided rates), own process (CPU: coord column)");
            }
            BenchRunner runner = new BenchRunner(testbed, agents, pids, rateMbit * 1_000_000L, modes,
                    coordinatorScheduler, coordinatorPids);
            long started = System.nanoTime();
            List<RunRecord> runs;
            try {
                runs = runner.runAll(scenarios, reps, repeats != null, warmups, r -> {
                    try {
                        Report.appendCsv(csv, r);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            } finally {
                runner.close();
                if (coordinator != null) {
                    coordinator.close();
                }
            }
            config.put("benchmark wall time", String.format("%.0f s", (System.nanoTime() - started) / 1e9));
            Report.writeAll(out, config, runs);
            System.out.println(Files.readString(out.resolve("summary.md")));
            System.out.println("netemu: report in " + out.toAbsolutePath() + " (" + Arrays.toString(
                    out.toFile().list()) + ")");
            return 0;
        }

        /**
         * Starts the coordinator on the management bridge and every agent's coordinated proxy, and waits until each
         * follows it; stops the coordinator again when that fails.
         */
        private CoordinatorProcess startCoordination(List<AgentClient> agents) throws Exception {
            String host = mgmtSubnet + ".254";
            CoordinatorProcess c = CoordinatorProcess.start(host, coordinatorPort, coordinatorScheduler,
                    coordinatorEpochMillis, capacityBytesPerSec(), out.resolve("coordinator.log"),
                    socketDir.resolve("pids"), 60_000);
            try {
                long waitMillis = coordinationTimeoutSec * 1000L;
                AgentMessages.Request req = AgentMessages.Request.coordinate(c.address(), capacityBytesPerSec(),
                        waitMillis);
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                        agents.size());
                try {
                    List<java.util.concurrent.Future<AgentMessages.Response>> fs = new ArrayList<>();
                    for (AgentClient a : agents) {
                        fs.add(pool.submit(() -> a.call(req)));
                    }
                    for (java.util.concurrent.Future<AgentMessages.Response> f : fs) {
                        try {
                            f.get(waitMillis + 30_000, java.util.concurrent.TimeUnit.MILLISECONDS);
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw new IllegalStateException("coordinated proxies not ready: "
                                    + e.getCause().getMessage(), e.getCause());
                        }
                    }
                } finally {
                    pool.shutdownNow();
                }
                System.err.println("netemu: coordinator " + coordinatorScheduler + " at " + c.address()
                        + " (pid " + c.pid() + "); all " + agents.size() + " coordinated proxies follow it");
                return c;
            } catch (Exception e) {
                c.close();
                throw e;
            }
        }
    }

    /** The loopback receive-path benchmark: one in-process agent, its reducers fetching from itself. */
    @Command(name = "receive", mixinStandardHelpOptions = true, description = "The receive path alone on loopback:"
            + " Courier's relay vs Hadoop's Fetcher on the same segments; CPU per segment and per GiB.")
    static final class Receive implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = "--out", required = true, description = "report directory")
        Path out;
        @Option(names = "--sizes", split = ",", defaultValue = "4096,65536,1048576",
                description = "segment sizes in bytes (default 4096,65536,1048576)")
        List<Long> sizes;
        @Option(names = "--reducers", defaultValue = "20", description = "reducers per run (default 20)")
        int reducers;
        @Option(names = "--maps", defaultValue = "4", description = "map outputs, i.e. segments per reducer"
                + " (default 4)")
        int maps;
        @Option(names = "--parallel-copies", defaultValue = "5", description = "stock fetchers per reducer"
                + " (default 5)")
        int parallelCopies;
        @Option(names = "--repeats", defaultValue = "3", description = "runs per mode and size (default 3)")
        int repeats;
        @Option(names = "--warmups", defaultValue = "1", description = "unrecorded rounds per size (default 1)")
        int warmups;
        @Option(names = "--modes", split = ",", defaultValue = "stock,courier", description = "stock, courier")
        List<String> modeNames;
        @Option(names = "--config", split = ",", description = "extra key=value lines for the report header")
        List<String> extra;

        @Override
        public Integer call() throws Exception {
            OptionChecks checks = new OptionChecks(spec).atLeast("--reducers", reducers, 1)
                    .atLeast("--maps", maps, 1).atLeast("--parallel-copies", parallelCopies, 1)
                    .atLeast("--repeats", repeats, 1).atLeast("--warmups", warmups, 0);
            List<Mode> modes;
            try {
                modes = Mode.parseList(modeNames, "coord");
            } catch (IllegalArgumentException e) {
                throw checks.error(e.getMessage());
            }
            if (modes.contains(Mode.COURIER_COORD)) {
                throw checks.error("--modes: the receive benchmark runs stock and courier only (no coordinator)");
            }
            for (long s : sizes) {
                checks.atLeast("--sizes", s, 1);
            }
            int proxyPort = BenchIds.SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET;
            if (!ReceivePathBench.portFree(BenchIds.SHUFFLE_PORT) || !ReceivePathBench.portFree(proxyPort)) {
                System.err.println("bin/courier bench receive: ports " + BenchIds.SHUFFLE_PORT + "/" + proxyPort
                        + " are in use (another agent or test on this machine); the loopback agent needs them");
                return 1;
            }
            Files.createDirectories(out);
            // Every segment here is node-local; Courier reducers would read them from their files. The benchmark is
            // of the relay, so unless asked otherwise they go through the proxy (read by CourierOverrides).
            if (System.getProperty(ReduceConfig.NODE_LOCAL_READS) == null) {
                System.setProperty(ReduceConfig.NODE_LOCAL_READS, "false");
            }
            Path work = Files.createTempDirectory(out, "work-");
            Path socket = work.resolve("agent.sock");
            HostAgent host = new HostAgent(1, "127.0.0.1", null, socket, work.resolve("h1").toFile());
            Thread agentThread = new Thread(() -> {
                try {
                    host.serve();
                } catch (Exception e) {
                    System.err.println("receive: loopback agent failed: " + e);
                }
            }, "netemu-request-acceptor");
            agentThread.setDaemon(true);
            agentThread.start();
            AgentClient client = ReceivePathBench.awaitAgent(socket, 60_000);
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("date", Instant.now().toString());
            config.put("reducers", reducers);
            config.put("maps (segments per reducer)", maps);
            config.put("stock parallel copies", parallelCopies);
            config.put(ReduceConfig.NODE_LOCAL_READS, System.getProperty(ReduceConfig.NODE_LOCAL_READS));
            config.put("segment sizes", sizes);
            config.put("repeats per mode and size", repeats + " (after " + warmups + " unrecorded)");
            config.put("JVM options", String.join(" ", java.lang.management.ManagementFactory.getRuntimeMXBean()
                    .getInputArguments().stream().filter(a -> a.startsWith("-X")).toList()));
            config.put("cpus", Runtime.getRuntime().availableProcessors());
            config.put("loadavg at start", Testbed.loadavg1());
            putExtraLines(config, extra);
            Path csv = out.resolve("runs.csv");
            Files.deleteIfExists(csv);
            List<ReceiveRun> runs;
            try {
                runs = new ReceivePathBench(client, ProcessHandle.current().pid(), reducers, maps, parallelCopies,
                        modes, ThreadCpuSampler.PERIOD_MILLIS).runAll(sizes.stream().mapToLong(Long::longValue).toArray(), repeats, warmups, r -> {
                            try {
                                ReceiveReport.appendCsv(csv, r);
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        });
            } finally {
                client.call(AgentMessages.Request.simple(AgentMessages.Op.QUIT));
                agentThread.join(30_000);
                ReceivePathBench.deleteTree(work);
            }
            Files.writeString(out.resolve("summary.md"), ReceiveReport.markdown(config, runs));
            System.out.println(Files.readString(out.resolve("summary.md")));
            System.out.println("receive: report in " + out.toAbsolutePath());
            return 0;
        }
    }

    /** Writes the YARN cluster's per-host configuration directories (called by yarn-cluster.sh). */
    @Command(name = "yarn-conf", description = "Write the emulated YARN cluster's conf dirs under WORK/conf/h<i>.")
    static final class YarnConf implements Callable<Integer> {
        @Option(names = "--hosts", required = true)
        int hosts;
        @Option(names = "--subnet", required = true)
        String subnet;
        @Option(names = "--work", required = true, description = "absolute work directory")
        Path work;
        @Option(names = "--app-classpath", required = true, description = "class path of AMs and tasks")
        String appClassPath;
        @Option(names = "--nm-memory-mb", defaultValue = "1536")
        int nmMemoryMb;

        @Override
        public Integer call() throws Exception {
            new YarnClusterConf(hosts, subnet, work, appClassPath, nmMemoryMb).writeAll();
            return 0;
        }
    }

    /** The TeraSort benchmark on the running YARN cluster (in host 1's namespace; called by yarn-cluster.sh). */
    @Command(name = "yarn-terasort", mixinStandardHelpOptions = true, description = "TeraGen, then TeraSort"
            + " stock vs Courier (alternating), TeraValidate every output, and write the report.")
    static final class YarnTeraSort implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = "--check-options", hidden = true, description = "check the options and exit:"
                + " yarn-cluster.sh calls this before it brings the cluster up")
        boolean checkOptions;
        @Option(names = "--hosts", required = true)
        int hosts;
        @Option(names = "--prefix", required = true)
        String prefix;
        @Option(names = "--subnet", required = true)
        String subnet;
        @Option(names = "--pids", required = true, description = "daemon PID file: lines '<pid> <role> <host>'")
        Path pids;
        @Option(names = "--out", required = true)
        Path out;
        @Option(names = "--rows", defaultValue = "1000000", description = "TeraGen rows of 100 bytes (default 100 MB)")
        long rows;
        @Option(names = "--gen-maps", description = "TeraGen maps = TeraSort maps (default: 2 per host)")
        Integer genMaps;
        @Option(names = "--reduces", description = "TeraSort reducers (default: 1 per host)")
        Integer reduces;
        @Option(names = "--repeats", defaultValue = "5", description = "TeraSort pairs (stock + Courier)")
        int repeats;
        @Option(names = "--warmups", defaultValue = "1", description = "unrecorded pairs first")
        int warmups;
        @Option(names = "--config", split = ",", description = "extra key=value lines for the report header")
        List<String> extra;

        /** Refuses bad counts as a usage error (exit 2, the option named) before the cluster is brought up. */
        void checkOptions() {
            OptionChecks checks = new OptionChecks(spec).atLeast("--hosts", hosts, 2).atLeast("--rows", rows, 1000)
                    .atLeast("--repeats", repeats, 1).atLeast("--warmups", warmups, 0);
            if (genMaps != null) {
                checks.atLeast("--gen-maps", genMaps, 1);
            }
            if (reduces != null) {
                checks.atLeast("--reduces", reduces, 1);
            }
        }

        @Override
        public Integer call() throws Exception {
            checkOptions();
            if (checkOptions) {
                return 0;
            }
            Files.createDirectories(out);
            List<Long> nms = new ArrayList<>();
            List<Long> daemons = new ArrayList<>();
            Map<Integer, Long> nmByHost = new java.util.TreeMap<>();
            for (String[] row : YarnTeraSortBench.readPidFile(pids)) {
                daemons.add(Long.parseLong(row[0]));
                if (row[1].equals("nodemanager")) {
                    nmByHost.put(Integer.parseInt(row[2]), Long.parseLong(row[0]));
                }
            }
            for (int h = 1; h <= hosts; h++) {
                Long pid = nmByHost.get(h);
                if (pid == null) {
                    throw new IllegalArgumentException(pids + " lists no nodemanager for host " + h);
                }
                nms.add(pid);
            }
            int maps = genMaps != null ? genMaps : 2 * hosts;
            int reds = reduces != null ? reduces : hosts;
            org.apache.hadoop.mapred.JobConf conf = new org.apache.hadoop.mapred.JobConf();
            // No JobHistoryServer runs. With its address empty (only settable in memory: an empty XML value is
            // ignored), a client that asks for a job's state after its AM has exited gets it from the
            // ResourceManager instead of retrying 0.0.0.0:10020 until the job "fails" (seen under load). Counters
            // and attempts come from the history files (JobHistoryReader).
            conf.set("mapreduce.jobhistory.address", "");
            Testbed testbed = new Testbed(prefix, subnet, hosts);
            YarnTeraSortBench bench = new YarnTeraSortBench(testbed, conf, nms, daemons);
            bench.awaitCluster(hosts, 300_000);
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("date", Instant.now().toString());
            config.put("hosts (NodeManagers, DataNodes)", hosts);
            config.put("input", rows + " rows (" + rows / 10_000 + " MB), " + maps + " TeraGen maps = TeraSort maps");
            config.put("TeraSort reducers", reds);
            config.put("repeats per mode", repeats);
            config.put("warm-up pairs (not recorded)", warmups);
            config.put("cpus", Runtime.getRuntime().availableProcessors());
            config.put("loadavg at start", Testbed.loadavg1());
            putExtraLines(config, extra);
            long started = System.nanoTime();
            io.courier.it.JobRun gen = bench.teraGen(rows, maps);
            System.out.println("yarn-terasort: TeraGen " + gen.jobId() + " in " + gen.wallMillis() / 1000.0 + " s");
            config.put("TeraGen time", String.format("%.1f s", gen.wallMillis() / 1000.0));
            Path csv = out.resolve("runs.csv");
            Files.deleteIfExists(csv);
            List<YarnRunRecord> runs = bench.runAll(repeats, warmups, reds, r -> {
                try {
                    YarnReport.appendCsv(csv, r);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            config.put("benchmark wall time", String.format("%.0f s", (System.nanoTime() - started) / 1e9));
            YarnReport.writeAll(out, config, runs);
            System.out.println(Files.readString(out.resolve("summary.md")));
            return 0;
        }
    }

    /** Adds the {@code --config key=value} lines (a bare {@code key} maps to "") to a report header. */
    private static void putExtraLines(Map<String, Object> config, List<String> extra) {
        if (extra == null) {
            return;
        }
        for (String kv : extra) {
            int eq = kv.indexOf('=');
            config.put(eq < 0 ? kv : kv.substring(0, eq), eq < 0 ? "" : kv.substring(eq + 1));
        }
    }
}
