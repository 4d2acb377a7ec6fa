package io.courier.coordinator.bench;

import com.sun.management.OperatingSystemMXBean;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
import io.courier.coordinator.PekkoSettings;
import io.courier.coordinator.client.ClientActor;
import io.courier.coordinator.client.ClientSettings;
import io.courier.coordinator.client.CoordinatorListener;
import io.courier.coordinator.client.Mode;
import io.courier.coordinator.client.ReportSource;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.status.CoordinatorStatus;
import com.typesafe.config.ConfigFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Scale harness (a benchmark, NOT a test; run with bench/coordinator-scale.sh): one coordinator and N
 * lightweight simulated proxies — the real {@link ClientActor}, N of them in one second actor system, talking to
 * the coordinator over Artery TCP with the Kryo wire format — each reporting every report interval. C coflows
 * stay active; each has S senders and R receivers picked at random, so about C·S·R unified flows. Senders move
 * bytes at the rates the coordinator decides, so reports change every epoch. After a warm-up it measures, over
 * the measurement window: epoch keeping (ticks, late ticks, largest gap), decision time (mean, max), message
 * rates (reports in, decisions out, decisions delivered to proxies) and CPU (per actor system, by thread).
 *
 * <p>Arguments (all optional): proxies coflows senders receivers warmupSeconds measureSeconds epochMs reportMs
 * scheduler. Defaults: 1000 100 10 10 10 30 10 10 varys.
 */
public final class CoordinatorScaleHarness {
    private CoordinatorScaleHarness() {
    }

    public static void main(String[] args) throws Exception {
        int proxies = arg(args, 0, 1000);
        int coflows = arg(args, 1, 100);
        int senders = arg(args, 2, 10);
        int receivers = arg(args, 3, 10);
        int warmup = arg(args, 4, 10);
        int measure = arg(args, 5, 30);
        int epochMs = arg(args, 6, 10);
        int reportMs = arg(args, 7, 10);
        String scheduler = args.length > 8 ? args[8] : "varys";

        Map<String, Object> m = new HashMap<String, Object>();
        m.put("courier.coordinator.port", 0);
        m.put("courier.coordinator.epoch", epochMs + "ms");
        m.put("courier.coordinator.scheduler.name", scheduler);
        m.put("courier.coordinator.node-expiry", "60s");
        m.put("courier.coordinator.max-frame-bytes", "1MiB");
        CoordinatorSettings settings = CoordinatorSettings.from(ConfigFactory.parseMap(m).withFallback(ConfigFactory.load()));
        Coordinator coordinator = Coordinator.start(settings, ConfigFactory.load(), CoordinatorScaleHarness.class.getClassLoader());

        // The workload: every coflow's senders and receivers; each sender node holds its rows.
        Random rnd = new Random(42);
        Map<Integer, List<SimFlow>> bySender = new HashMap<Integer, List<SimFlow>>();
        List<String> jobs = new ArrayList<String>();
        for (int c = 0; c < coflows; c++) {
            String job = "job_" + c;
            jobs.add(job);
            int[] s = distinct(rnd, senders, proxies);
            int[] r = distinct(rnd, receivers, proxies);
            // Sizes spread over three orders of magnitude, large enough not to finish during the run.
            long size = (long) (1e9 * Math.pow(10, rnd.nextDouble() * 3));
            for (int si : s) {
                for (int ri : r) {
                    if (si == ri) {
                        continue;
                    }
                    List<SimFlow> l = bySender.get(si);
                    if (l == null) {
                        l = new ArrayList<SimFlow>();
                        bySender.put(si, l);
                    }
                    l.add(new SimFlow(job, node(si), node(ri), size));
                }
            }
        }
        int flowCount = 0;
        for (List<SimFlow> l : bySender.values()) {
            flowCount += l.size();
        }

        final AtomicLong delivered = new AtomicLong();
        final AtomicInteger coordinated = new AtomicInteger();
        final ClientSettings cs = ClientSettings.builder("127.0.0.1", coordinator.port()).reportIntervalMillis(reportMs)
                .ackTimeoutMillis(5_000).registerRetryMillis(1_000).maxFrameBytes(1 << 20).build();
        final List<Behavior<ClientCommand>> clients = new ArrayList<Behavior<ClientCommand>>();
        for (int i = 0; i < proxies; i++) {
            final List<SimFlow> mine = bySender.containsKey(i) ? bySender.get(i) : new ArrayList<SimFlow>();
            final Map<String, SimFlow> byKey = new ConcurrentHashMap<String, SimFlow>();
            for (SimFlow f : mine) {
                byKey.put(f.job + " " + f.dst, f);
            }
            final String self = node(i);
            ReportSource source = () -> {
                List<FlowReport> rows = new ArrayList<FlowReport>(mine.size());
                long now = System.nanoTime();
                for (SimFlow f : mine) {
                    rows.add(f.advance(now));
                }
                return rows;
            };
            CoordinatorListener listener = new CoordinatorListener() {
                @Override
                public void onDecisions(DecisionUpdate update) {
                    delivered.incrementAndGet();
                    for (FlowDecision d : update.flows()) {
                        if (d.srcNode().equals(self)) {
                            SimFlow f = byKey.get(d.jobId() + " " + d.dstNode());
                            if (f != null) {
                                f.rate = d.rate();
                            }
                        }
                    }
                }

                @Override
                public void onModeChanged(Mode mode, String reason) {
                    if (mode == Mode.COORDINATED) {
                        coordinated.incrementAndGet();
                    } else {
                        coordinated.decrementAndGet();
                    }
                }
            };
            clients.add(ClientActor.create(cs, new NodeInfo(self, self + ":13562", self + ":13563", 125_000_000L,
                    125_000_000L), source, listener, new AtomicReference<Mode>(Mode.FALLBACK)));
        }
        final List<ActorRef<ClientCommand>> refs = new ArrayList<ActorRef<ClientCommand>>();
        ActorSystem<Void> proxySystem = ActorSystem.create(Behaviors.<Void>setup(ctx -> {
            for (int i = 0; i < clients.size(); i++) {
                refs.add(ctx.spawn(clients.get(i), "proxy-" + i));
            }
            return Behaviors.empty();
        }), "proxies", BootstrapSetup.create(PekkoSettings.remoting("127.0.0.1", 0, 1 << 20, ConfigFactory.load())));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (coordinated.get() < proxies && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        System.out.printf(Locale.ROOT, "%d of %d proxies registered%n", coordinated.get(), proxies);
        // Coflow arrivals: each job's first sender registers it (as a proxy would).
        for (int c = 0; c < coflows; c++) {
            coordinator.system().tell(new CoflowRegistered(jobs.get(c), Double.NaN, "NORMAL", System.currentTimeMillis()));
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmup));

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        CoordinatorStatus s0 = statusOrNull(coordinator);
        Map<String, Long> cpu0 = cpuBySystem(threads);
        long proc0 = os.getProcessCpuTime();
        long delivered0 = delivered.get();
        long t0 = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(measure));
        long t1 = System.nanoTime();
        Map<String, Long> cpu1 = cpuBySystem(threads);
        long proc1 = os.getProcessCpuTime();
        long delivered1 = delivered.get();
        CoordinatorStatus s1 = statusOrNull(coordinator);
        double secs = (t1 - t0) / 1e9;

        System.out.printf(Locale.ROOT, "load: %d proxies, %d active coflows, %d unified flows, report every %d ms,"
                + " epoch %d ms, scheduler %s, %d cores%n", proxies, coflows, flowCount, reportMs,
                epochMs, scheduler, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "window: %.1f s after %d s warm-up; proxies COORDINATED at the end: %d%n", secs,
                warmup, coordinated.get());
        if (s0 == null || s1 == null) {
            System.out.println("coordinator status: NO ANSWER within 30 s (the scheduling actor is backlogged:"
                    + " overloaded)");
        } else {
            CoordinatorStatus.EpochStats a = s0.epochs();
            CoordinatorStatus.EpochStats b = s1.epochs();
            long ticks = b.epochs - a.epochs;
            long decisions = b.decisions - a.decisions;
            System.out.printf(Locale.ROOT, "epoch keeping: %d ticks (%.1f/s, due %.1f/s), skipped boundaries %d,"
                    + " late ticks (gap > 2 epochs) %d, max gap since start %.1f ms%n", ticks, ticks / secs,
                    1000.0 / epochMs, b.skippedEpochs - a.skippedEpochs, b.lateEpochs - a.lateEpochs,
                    b.maxEpochGapNanos / 1e6);
            System.out.printf(Locale.ROOT, "decision time: mean %.3f ms wall / %.3f ms CPU over %d runs, max wall since"
                    + " start %.3f ms, last %.3f ms wall / %.3f ms CPU (%d coflows in the last status)%n",
                    decisions == 0 ? 0.0 : (b.totalDecisionNanos - a.totalDecisionNanos) / 1e6 / decisions,
                    decisions == 0 ? 0.0 : (b.totalDecisionCpuNanos - a.totalDecisionCpuNanos) / 1e6 / decisions,
                    decisions, b.maxDecisionNanos / 1e6, b.lastDecisionNanos / 1e6, b.lastDecisionCpuNanos / 1e6,
                    s1.coflows().size());
            System.out.printf(Locale.ROOT, "messages: reports in %.0f/s (due %.0f/s), decision updates out %.0f/s,"
                    + " rows rejected %d, scheduler failures %d%n",
                    (b.reportsReceived - a.reportsReceived) / secs, proxies * 1000.0 / reportMs,
                    (b.decisionMessagesSent - a.decisionMessagesSent) / secs, b.rowsRejected - a.rowsRejected,
                    b.schedulerFailures);
        }
        System.out.printf(Locale.ROOT, "decision updates delivered to proxies: %.0f/s%n", (delivered1 - delivered0) / secs);
        for (String sys : new String[] {"courier-coordinator", "proxies"}) {
            long d = (cpu1.containsKey(sys) ? cpu1.get(sys) : 0) - (cpu0.containsKey(sys) ? cpu0.get(sys) : 0);
            System.out.printf(Locale.ROOT, "cpu %s threads: %.2f cores%n", sys, d / 1e9 / secs);
        }
        System.out.printf(Locale.ROOT, "cpu whole process: %.2f cores%n", (proc1 - proc0) / 1e9 / secs);

        proxySystem.terminate();
        try {
            proxySystem.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.out.println("proxies did not stop within 30 s: " + e);
        }
        try {
            coordinator.close();
        } catch (IllegalStateException e) {
            System.out.println(e.getMessage());
        }
        System.exit(0);
    }

    private static CoordinatorStatus statusOrNull(Coordinator c) {
        try {
            return c.status(Duration.ofSeconds(30)).toCompletableFuture().get(40, TimeUnit.SECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    /** CPU nanoseconds of live threads, grouped by the actor system their name starts with. */
    private static Map<String, Long> cpuBySystem(ThreadMXBean mx) {
        Map<String, Long> out = new HashMap<String, Long>();
        for (long id : mx.getAllThreadIds()) {
            ThreadInfo info = mx.getThreadInfo(id);
            long t = mx.getThreadCpuTime(id);
            if (info == null || t < 0) {
                continue;
            }
            String name = info.getThreadName();
            String key = name.startsWith("courier-coordinator") ? "courier-coordinator"
                    : name.startsWith("proxies") ? "proxies" : "other";
            out.put(key, (out.containsKey(key) ? out.get(key) : 0L) + t);
        }
        return out;
    }

    private static String node(int i) {
        return "nm-" + i;
    }

    private static int[] distinct(Random rnd, int k, int n) {
        int[] out = new int[Math.min(k, n)];
        java.util.Set<Integer> seen = new java.util.HashSet<Integer>();
        for (int i = 0; i < out.length;) {
            int x = rnd.nextInt(n);
            if (seen.add(x)) {
                out[i++] = x;
            }
        }
        return out;
    }

    private static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }

    /** One simulated sender-side flow; advanced on its client's actor thread, rate set from decisions. */
    static final class SimFlow {
        final String job;
        final String src;
        final String dst;
        final long size;
        volatile double rate;
        private double sent;
        private long lastNanos;
        private double measured = -1;

        SimFlow(String job, String src, String dst, long size) {
            this.job = job;
            this.src = src;
            this.dst = dst;
            this.size = size;
        }

        FlowReport advance(long now) {
            if (lastNanos != 0) {
                double dt = (now - lastNanos) / 1e9;
                double moved = Math.min(size - sent, rate * dt);
                sent += moved;
                measured = dt > 0 ? moved / dt : 0;
            }
            lastNanos = now;
            long s = (long) sent;
            return new FlowReport(job, src, dst, s, size - s, -1, measured < 0 ? -1 : measured, s >= size);
        }
    }
}
