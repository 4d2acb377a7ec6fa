package io.courier.bench.netemu;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The receive path alone, on loopback: one agent (host 1 of 1) whose reducers fetch every segment from the host's
 * own shuffle service — Hadoop's Fetcher over HTTP from ShuffleHandler (stock), Courier's relay from the local
 * proxy (courier) — the same prepared segments for both, per segment size. Each run's CPU is the benchmark
 * process's over the run window, split per thread role by {@link ThreadCpuSampler} on this process: no network,
 * no other host, so per segment and per GiB it is what receiving (and, apart, serving) costs. Used from one
 * thread; the agent is the caller's.
 */
final class ReceivePathBench {
    private static final Logger LOG = LoggerFactory.getLogger(ReceivePathBench.class);
    /** Time between RUN and the reducers' start: their set-up (as in {@link BenchRunner}). */
    private static final long START_LEAD_MILLIS = 500;

    private final AgentClient agent;
    private final long pid;
    private final int reducers;
    private final int maps;
    private final int parallelCopies;
    private final List<Mode> modes;
    /** The thread CPU sampler's period (ms). */
    private final long samplePeriodMillis;
    private int nextCoflow = 1;

    ReceivePathBench(AgentClient agent, long pid, int reducers, int maps, int parallelCopies, List<Mode> modes,
            long samplePeriodMillis) {
        this.samplePeriodMillis = samplePeriodMillis;
        this.agent = agent;
        this.pid = pid;
        this.reducers = reducers;
        this.maps = maps;
        this.parallelCopies = parallelCopies;
        this.modes = List.copyOf(modes);
    }

    /** Whether {@code port} can be bound on every address (the agent's shuffle services bind it so). */
    static boolean portFree(int port) {
        try (java.net.ServerSocket s = new java.net.ServerSocket()) {
            s.bind(new java.net.InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A client of the agent serving {@code socket}, once it answers PING (at most {@code timeoutMillis}). */
    static AgentClient awaitAgent(Path socket, long timeoutMillis) throws IOException, InterruptedException {
        AgentClient client = new AgentClient(1, socket);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                client.call(AgentMessages.Request.simple(AgentMessages.Op.PING));
                return client;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("loopback agent at " + socket + " not answering after " + timeoutMillis
                            + " ms: " + e.getMessage(), e);
                }
                Thread.sleep(50);
            }
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!java.nio.file.Files.exists(root)) {
            return;
        }
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(root)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                java.nio.file.Files.deleteIfExists(p);
            }
        }
    }

    /** Every size: prepared once, {@code warmups} unrecorded rounds, then {@code repeats} rounds of every mode. */
    List<ReceiveRun> runAll(long[] sizes, int repeats, int warmups, Consumer<ReceiveRun> sink) throws IOException,
            InterruptedException {
        List<ReceiveRun> out = new ArrayList<>();
        for (long size : sizes) {
            int prepared = nextCoflow++;
            long[] lengths = agent.call(AgentMessages.Request.prepare(prepared, 1, maps, reducers, size))
                    .partLengths();
            long[] expected = new long[reducers];
            for (int m = 0; m < maps; m++) {
                for (int p = 0; p < reducers; p++) {
                    expected[p] += lengths[m * reducers + p];
                }
            }
            try {
                for (int r = -warmups; r < repeats; r++) {
                    for (Mode mode : Mode.order(modes, Math.max(0, r))) {
                        ReceiveRun run = run(prepared, size, expected, mode, r);
                        if (r >= 0) {
                            out.add(run);
                            sink.accept(run);
                        }
                    }
                }
            } finally {
                agent.call(AgentMessages.Request.finish(prepared));
            }
        }
        return out;
    }

    private ReceiveRun run(int prepared, long size, long[] expected, Mode mode, int repeat) throws IOException,
            InterruptedException {
        int id = nextCoflow++;
        agent.call(AgentMessages.Request.link(prepared, id, maps));
        try {
            List<Integer> parts = new ArrayList<>();
            for (int p = 0; p < reducers; p++) {
                parts.add(p);
            }
            long ticks0 = Testbed.ticksOf(List.of(pid));
            ThreadCpuSampler sampler = new ThreadCpuSampler(List.of(pid), Path.of("/proc"), samplePeriodMillis, null);
            sampler.start();
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_LEAD_MILLIS);
            AgentMessages.Response resp;
            RoleCpu roles;
            long ticks1;
            try {
                resp = agent.call(AgentMessages.Request.run(id, 1, maps, reducers, size, mode, parallelCopies, parts,
                        start));
            } finally {
                roles = sampler.stop();
                ticks1 = Testbed.ticksOf(List.of(pid));
            }
            if (roles.error() != null) {
                LOG.warn("{} {} B #{}: per-role CPU incomplete: {}", mode, size, repeat, roles.error());
            }
            long end = start;
            long bytes = 0;
            for (AgentMessages.ReducerResult r : resp.reducers()) {
                if (r.error() != null) {
                    throw new IOException("loopback " + mode + " run of " + size + "-byte segments: " + r.error());
                }
                if (r.bytes() != expected[r.partition()]) {
                    throw new IOException("loopback " + mode + " run of " + size + "-byte segments: reducer "
                            + r.partition() + " got " + r.bytes() + " bytes, expected " + expected[r.partition()]);
                }
                end = Math.max(end, r.endNanos());
                bytes += r.bytes();
            }
            ReceiveRun run = new ReceiveRun(mode.label("coord"), size, repeat, reducers, (long) reducers * maps,
                    bytes, (end - start) / 1e9, (ticks1 - ticks0) / (double) RunCpu.USER_HZ, roles);
            LOG.info("{} segments of {} B, {} #{}: {} s, CPU {} s (receive {} s, serve {} s)", run.segments(), size,
                    run.mode(), repeat, BenchRunner.fmt(run.wallSec()), BenchRunner.fmt(run.processCpuSec()),
                    BenchRunner.fmt(run.receiveSec()), BenchRunner.fmt(run.serveSec()));
            return run;
        } finally {
            agent.call(AgentMessages.Request.finish(id));
        }
    }
}
