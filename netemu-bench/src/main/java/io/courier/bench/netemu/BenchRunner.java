package io.courier.bench.netemu;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs scenarios on the running agents: prepares each scenario's map outputs once (the same bytes for every
 * mode), then repeats the modes interleaved (two: S C, C S, ...; three rotated: S C K, C K S, K S C, ...), each run
 * started on every host at one CLOCK_MONOTONIC deadline, and measures it (CCT, switch drops, TCP counters,
 * connections, CPU) with the validity checks of the research note. Every run is its own job per coflow (the
 * prepared outputs hard-linked under fresh job ids, finished after the run), so that with a coordinator each run's
 * coflows are new and complete when the run ends. Owner of its request threads; used from one thread.
 */
final class BenchRunner {
    private static final Logger LOG = LoggerFactory.getLogger(BenchRunner.class);
    /** Foreign CPU (cores) before a run above which the run is "under load" (the research note's check). */
    static final double IDLE_OTHER_CORES = 0.1;
    /** One-second idle windows tried before a run at most (the last one's reading decides validity). */
    static final int IDLE_WINDOWS = 20;
    /** The idle check before every run, of this driver and of {@link YarnTeraSortBench} (immutable). */
    static final IdleGate IDLE_GATE = new IdleGate(IDLE_OTHER_CORES, IDLE_WINDOWS);
    /** Efficiency the merged bulk case must reach, or the emulator itself was starved (research note §6). */
    static final double MIN_BULK_EFFICIENCY = 0.9;
    /** Payload share of a full 1514-byte frame (1448 bytes of TCP payload with timestamps). */
    static final double PAYLOAD_SHARE = 1448.0 / 1514.0;

    private final Testbed testbed;
    private final List<AgentClient> agents;
    private final List<Long> agentPids;
    private final long rateBitsPerSec;
    private final List<Mode> modes;
    /** The coordinator's scheduler (mode labels); its process's PIDs (empty without one), CPU kept apart. */
    private final String scheduler;
    private final List<Long> coordinatorPids;
    /** Agents and coordinator: the processes whose CPU the idle check does not count as foreign. */
    private final List<Long> ownPids;
    private final int cpus = Runtime.getRuntime().availableProcessors();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "netemu-coordinator");
        t.setDaemon(true);
        return t;
    });
    private int nextCoflow = 1;

    BenchRunner(Testbed testbed, List<AgentClient> agents, List<Long> agentPids, long rateBitsPerSec,
            List<Mode> modes, String scheduler, List<Long> coordinatorPids) {
        this.testbed = testbed;
        this.agents = agents;
        this.agentPids = agentPids;
        this.rateBitsPerSec = rateBitsPerSec;
        this.modes = List.copyOf(modes);
        this.scheduler = scheduler;
        this.coordinatorPids = List.copyOf(coordinatorPids);
        List<Long> own = new ArrayList<>(agentPids);
        own.addAll(coordinatorPids);
        this.ownPids = List.copyOf(own);
    }

    static List<AgentClient> clients(Path socketDir, int hosts) {
        List<AgentClient> l = new ArrayList<>();
        for (int h = 1; h <= hosts; h++) {
            l.add(new AgentClient(h, socketDir.resolve("agent-" + h + ".sock")));
        }
        return l;
    }

    /** A scenario's coflows with their job numbers and expected bytes, ready on every host. */
    private record Prepared(Scenario scenario, List<Integer> ids, List<long[]> expectedPerPartition,
                            List<long[]> remoteBytesPerHost) {
    }

    /**
     * Runs every scenario {@code repeats} times per mode (unless it sets its own and {@code forceRepeats} is
     * false), after {@code warmups} unrecorded runs of the first.
     */
    List<RunRecord> runAll(List<Scenario> scenarios, int repeats, boolean forceRepeats, int warmups,
            java.util.function.Consumer<RunRecord> sink) throws Exception {
        List<RunRecord> out = new ArrayList<>();
        boolean first = true;
        for (Scenario s : scenarios) {
            Prepared p = prepare(s);
            try {
                if (first) {
                    for (int w = 0; w < warmups; w++) {
                        LOG.info("warm-up {} of {}: {}", w + 1, warmups, s.label());
                        for (Mode m : modes) {
                            run(p, m, -1);
                        }
                    }
                    first = false;
                }
                int n = s.repeats() > 0 && !forceRepeats ? s.repeats() : repeats;
                for (int r = 0; r < n; r++) {
                    for (Mode m : Mode.order(modes, r)) {
                        RunRecord rec = run(p, m, r);
                        out.add(rec);
                        sink.accept(rec);
                    }
                }
            } finally {
                finish(p.ids());
            }
        }
        return out;
    }

    private Prepared prepare(Scenario s) throws Exception {
        int hosts = testbed.hosts();
        List<Integer> ids = new ArrayList<>();
        List<long[]> expected = new ArrayList<>();
        List<long[]> remote = new ArrayList<>();
        for (CoflowSpec c : s.coflows()) {
            int id = nextCoflow++;
            int partitions = hosts * c.reducersPerHost();
            AgentMessages.Request req = AgentMessages.Request.prepare(id, hosts, c.mapsPerHost(), partitions,
                    c.segmentBytes());
            List<Future<AgentMessages.Response>> fs = new ArrayList<>();
            for (AgentClient a : agents) {
                fs.add(pool.submit(() -> a.call(req)));
            }
            long[] perPartition = new long[partitions];
            long[] remoteIn = new long[hosts + 1];
            for (int h = 1; h <= hosts; h++) {
                long[] lengths = fs.get(h - 1).get().partLengths();
                for (int m = 0; m < c.mapsPerHost(); m++) {
                    for (int p = 0; p < partitions; p++) {
                        long len = lengths[m * partitions + p];
                        perPartition[p] += len;
                        int reducerHost = p / c.reducersPerHost() + 1;
                        if (reducerHost != h) {
                            remoteIn[reducerHost] += len;
                        }
                    }
                }
            }
            ids.add(id);
            expected.add(perPartition);
            remote.add(remoteIn);
        }
        LOG.info("prepared {}: coflows {}", s.label(), ids);
        return new Prepared(s, ids, expected, remote);
    }

    /** Ends the jobs on every host (their coflows complete at a coordinator); failures are logged only. */
    private void finish(List<Integer> ids) {
        for (int id : ids) {
            AgentMessages.Request req = AgentMessages.Request.finish(id);
            for (AgentClient a : agents) {
                try {
                    a.call(req);
                } catch (IOException e) {
                    LOG.warn("finishing coflow {}: {}", id, e.getMessage());
                }
            }
        }
    }

    /** Fresh job ids for one run of {@code p}: the prepared outputs linked under them on every host. */
    private List<Integer> link(Prepared p) throws Exception {
        List<Integer> ids = new ArrayList<>();
        try {
            for (int c = 0; c < p.ids().size(); c++) {
                int id = nextCoflow++;
                ids.add(id);
                AgentMessages.Request req = AgentMessages.Request.link(p.ids().get(c), id,
                        p.scenario().coflows().get(c).mapsPerHost());
                List<Future<AgentMessages.Response>> fs = new ArrayList<>();
                for (AgentClient a : agents) {
                    fs.add(pool.submit(() -> a.call(req)));
                }
                for (Future<AgentMessages.Response> f : fs) {
                    f.get();
                }
            }
        } catch (Exception e) {
            finish(ids);
            throw e;
        }
        return ids;
    }

    /** Time between sending RUN and the coflows' start; a run whose set-up overruns it starts late, visibly. */
    private static final long START_LEAD_MILLIS = 1500;

    private RunRecord run(Prepared p, Mode mode, int repeat) throws Exception {
        List<Integer> ids = link(p);
        try {
            return run(p, ids, mode, repeat);
        } finally {
            finish(ids);
        }
    }

    private RunRecord run(Prepared p, List<Integer> ids, Mode mode, int repeat) throws Exception {
        Scenario s = p.scenario();
        int hosts = testbed.hosts();
        // Idle check: foreign CPU over one-second windows before the run (our agents idle, so all busy time is
        // foreign or our driver's); waits up to IDLE_WINDOWS windows for one below the limit. The agents' and the
        // coordinator's CPU are ours, not foreign.
        IdleGate.Reading idle = IDLE_GATE.await(IdleGate.machineWindow(() -> ownPids, cpus));
        double otherBefore = idle.foreignCores;
        if (idle.windows > 1) {
            LOG.info("waited {} s for the host to go idle before {} {} #{} (last window: {} foreign cores)",
                    idle.windows - 1, s.label(), mode.label(scheduler), repeat, fmt(otherBefore));
        }
        double load = Testbed.loadavg1();

        TcQdiscStats sw0 = testbed.switchPorts();
        HostCounters counters0 = new HostCounters(collect(testbed::nstat), collect(testbed::hostNic));
        ConnectionSampler sampler = new ConnectionSampler(testbed, agentPids, mode.foreignPorts(), java.util.Set.of());
        String startedAt = Instant.now().toString();
        CpuTimes cpu0 = Testbed.cpu();
        long[] ticks0 = Testbed.ticksEach(agentPids);
        // Right after ticks0 and stopped right before ticks1: the role split covers the same window.
        ThreadCpuSampler threads = new ThreadCpuSampler(agentPids, Path.of("/proc"), ThreadCpuSampler.PERIOD_MILLIS,
                ThreadCpuSampler.NICE);
        threads.start();
        long coordTicks0 = Testbed.ticksOf(coordinatorPids);
        sampler.start();
        // The lead covers the agents' reducer set-up (ReducerRun.prepare) before the common start.
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_LEAD_MILLIS);
        List<List<Future<AgentMessages.Response>>> futures = new ArrayList<>();
        for (int c = 0; c < s.coflows().size(); c++) {
            CoflowSpec spec = s.coflows().get(c);
            int id = ids.get(c);
            long start = t0 + (long) (spec.arrivalSec() * 1e9);
            List<Future<AgentMessages.Response>> perHost = new ArrayList<>();
            for (AgentClient a : agents) {
                List<Integer> reducers = new ArrayList<>();
                for (int r = 0; r < spec.reducersPerHost(); r++) {
                    reducers.add((a.host() - 1) * spec.reducersPerHost() + r);
                }
                AgentMessages.Request req = AgentMessages.Request.run(id, hosts, spec.mapsPerHost(),
                        hosts * spec.reducersPerHost(), spec.segmentBytes(), mode, spec.parallelCopies(), reducers,
                        start);
                perHost.add(pool.submit(() -> a.call(req)));
            }
            futures.add(perHost);
        }
        List<String> errors = new ArrayList<>();
        java.util.Set<Integer> fellBack = new java.util.TreeSet<>();
        List<Double> ccts = new ArrayList<>();
        double ideal = 0;
        long lastEnd = t0;
        for (int c = 0; c < futures.size(); c++) {
            CoflowSpec spec = s.coflows().get(c);
            long start = t0 + (long) (spec.arrivalSec() * 1e9);
            long end = start;
            long[] expected = p.expectedPerPartition().get(c);
            for (int h = 0; h < futures.get(c).size(); h++) {
                Future<AgentMessages.Response> f = futures.get(c).get(h);
                try {
                    AgentMessages.Response resp = f.get();
                    if (resp.uncoordinated()) {
                        fellBack.add(agents.get(h).host());
                    }
                    for (AgentMessages.ReducerResult r : resp.reducers()) {
                        end = Math.max(end, r.endNanos());
                        if (r.error() != null) {
                            errors.add(r.error());
                        } else if (r.bytes() != expected[r.partition()]) {
                            errors.add("coflow " + ids.get(c) + " reducer " + r.partition() + " (" + mode
                                    + ") got " + r.bytes() + " bytes, expected " + expected[r.partition()]);
                        }
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    errors.add(String.valueOf(e.getCause().getMessage()));
                }
            }
            lastEnd = Math.max(lastEnd, end);
            ccts.add((end - start) / 1e9);
            long maxRemote = 0;
            for (long b : p.remoteBytesPerHost().get(c)) {
                maxRemote = Math.max(maxRemote, b);
            }
            ideal = Math.max(ideal, maxRemote * 8.0 / (rateBitsPerSec * PAYLOAD_SHARE));
        }
        sampler.stop();
        CpuTimes cpu1 = Testbed.cpu();
        RoleCpu roles = threads.stop();
        long[] ticks1 = Testbed.ticksEach(agentPids);
        List<Double> agentSecByHost = new ArrayList<>();
        long agentTicks = 0;
        for (int h = 0; h < ticks1.length; h++) {
            agentSecByHost.add((ticks1[h] - ticks0[h]) / (double) RunCpu.USER_HZ);
            agentTicks += ticks1[h] - ticks0[h];
        }
        long coordTicks1 = Testbed.ticksOf(coordinatorPids);
        TcQdiscStats sw = testbed.switchPorts().minus(sw0);
        HostCounters.Totals net = new HostCounters(collect(testbed::nstat), collect(testbed::hostNic))
                .since(counters0);
        long retrans = net.retrans();
        long timeouts = net.timeouts();
        long syn = net.syn();
        long probes = net.probes();
        long opens = net.opens();
        long nicDrops = net.nicDrops();
        if (sampler.error() != null) {
            errors.add("connection sampling: " + sampler.error());
        }
        double cct = Collections.max(ccts);
        List<Double> sortedCcts = new ArrayList<>(ccts);
        Collections.sort(sortedCcts);
        double median = Stats.median(sortedCcts);
        boolean single = s.coflows().size() == 1;
        double efficiency = single ? ideal / cct : Double.NaN;
        long dt = Math.max(1, cpu1.total() - cpu0.total());
        double agentCores = cpus * (double) agentTicks / dt;
        double coordinatorCores = cpus * (double) (coordTicks1 - coordTicks0) / dt;
        if (roles.error() != null) {
            LOG.warn("{} {} #{}: per-role CPU incomplete: {}", s.label(), mode.label(scheduler), repeat,
                    roles.error());
        }
        RunCpu runCpu = new RunCpu(segments(p), shuffledBytes(p), agentTicks / (double) RunCpu.USER_HZ,
                agentSecByHost, roles);
        List<String> invalid = new ArrayList<>();
        if (!errors.isEmpty()) {
            invalid.add("reducer errors or wrong byte counts (" + errors.size() + ")");
        }
        if (otherBefore >= IDLE_OTHER_CORES) {
            invalid.add(String.format("under load: %.2f foreign cores before the run (loadavg %.2f)", otherBefore,
                    load));
        }
        if (mode == Mode.COURIER && "bulk".equals(s.family()) && efficiency < MIN_BULK_EFFICIENCY) {
            invalid.add(String.format("merged bulk efficiency %.2f < %.1f (emulator starved)", efficiency,
                    MIN_BULK_EFFICIENCY));
        }
        if (!fellBack.isEmpty()) {
            invalid.add("coordinated proxies of hosts " + fellBack + " fell back to decentralized scheduling during"
                    + " the run (coordinator silent for the client's ack timeout)");
        }
        if (nicDrops > 0) {
            invalid.add(nicDrops + " host NIC drops (the switch must be the only bottleneck)");
        }
        RunRecord rec = new RunRecord(s.family(), s.label(), s.x(), mode.label(scheduler), repeat, startedAt,
                ccts, cct, median, single ? ideal : Double.NaN, efficiency, sw.totalDrops(), sw.totalPackets(),
                sw.totalPackets() + sw.totalDrops() == 0 ? 0
                        : 100.0 * sw.totalDrops() / (sw.totalPackets() + sw.totalDrops()),
                nicDrops, retrans, timeouts, syn, probes, opens, sampler.maxOverHosts(), sampler.maxPerPair(),
                cpu1.busyCoresSince(cpu0, cpus), cpu1.softirqCoresSince(cpu0, cpus), agentCores, coordinatorCores,
                otherBefore, load,
                (lastEnd - t0) / 1e9, errors.size() > 20 ? errors.subList(0, 20) : errors, invalid.isEmpty(),
                invalid, runCpu);
        LOG.info("{} {} #{}: CCT {} s (median {}), drops {}, retrans {}, RTO {}, SYN retx {}, max conns/host {}, "
                        + "pair {}, agent CPU {} s, other cores before {}{}", s.label(), mode.label(scheduler), repeat,
                fmt(cct), fmt(median), sw.totalDrops(), retrans, timeouts, syn, sampler.maxOverHosts(),
                sampler.maxPerPair(), fmt(runCpu.agentSec()), fmt(otherBefore),
                invalid.isEmpty() ? "" : " INVALID: " + invalid);
        return rec;
    }

    /** Map output segments a run of {@code p} fetches: every reducer one per map of every host (its own too). */
    private long segments(Prepared p) {
        long n = 0;
        for (CoflowSpec c : p.scenario().coflows()) {
            n += (long) testbed.hosts() * c.reducersPerHost() * testbed.hosts() * c.mapsPerHost();
        }
        return n;
    }

    /** Bytes a run of {@code p} fetches (all reducers, remote and local segments). */
    private static long shuffledBytes(Prepared p) {
        long n = 0;
        for (long[] perPartition : p.expectedPerPartition()) {
            for (long b : perPartition) {
                n += b;
            }
        }
        return n;
    }

    /** A per-host reading, taken for all hosts at once (each is a process start under load). */
    private interface HostReading<T> {
        T read(int host) throws IOException;
    }

    private <T> List<T> collect(HostReading<T> reading) throws Exception {
        List<Future<T>> fs = new ArrayList<>();
        for (int h = 1; h <= testbed.hosts(); h++) {
            int host = h;
            fs.add(pool.submit(() -> reading.read(host)));
        }
        List<T> out = new ArrayList<>();
        for (Future<T> f : fs) {
            out.add(f.get());
        }
        return out;
    }

    static String fmt(double v) {
        return String.format("%.3f", v);
    }

    void close() {
        pool.shutdownNow();
    }
}
