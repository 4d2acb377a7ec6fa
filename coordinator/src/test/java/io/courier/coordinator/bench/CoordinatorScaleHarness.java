package io.courier.coordinator.bench;

import com.sun.management.OperatingSystemMXBean;
import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.coordinator.status.TickLateness;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Scale harness (a benchmark, NOT a test; run with bench/coordinator-scale.sh): one coordinator in this JVM and
 * N lightweight simulated proxies — the real client actor, N of them in one actor system — in a second JVM it
 * forks ({@link ScaleProxies}), talking to the coordinator over Artery TCP with the Kryo wire format, each
 * reporting every report interval. The {@link ScaleWorkload} keeps C coflows active with S senders and R
 * receivers each (about C·S·R unified flows). After a warm-up it measures, over the window: epoch keeping
 * (boundaries due, ticks run, ticks that finished before the next boundary, tick lateness p50/p99/max), decision
 * time, message rates, and CPU of this process (the coordinator alone, by thread group) and of the proxies'
 * process. The last line ({@code RESULT ...}) is for scripts that aggregate repeats.
 *
 * <p>Arguments (all optional): proxies coflows senders receivers warmupSeconds measureSeconds epochMs reportMs
 * scheduler. Defaults: 1000 100 10 10 10 30 10 10 varys. Environment: COURIER_PROXY_JAVA_OPTS, JVM options of
 * the proxies' process (default -Xmx2g); COURIER_PROXY_PREFIX, a command prefix for the proxies' process
 * (e.g. {@code taskset -c 1} or {@code nice -n 10}).
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
        ScaleWorkload w = new ScaleWorkload(proxies, coflows, senders, receivers);

        // Coflow arrivals BEFORE the proxies start, so that every coflow exists when the first reports come. Each
        // proxy also registers the jobs it sends, as a real one does (a client reports only jobs it registered);
        // for the coordinator those are repeats of known coflows.
        for (String job : w.jobs) {
            coordinator.system().tell(new CoflowRegistered(job, Double.NaN, "NORMAL", System.currentTimeMillis()));
        }
        awaitCoflows(coordinator, w.jobs.size());

        Process child = forkProxies(coordinator.port(), proxies, coflows, senders, receivers, reportMs);
        BufferedReader fromChild = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter toChild = new PrintWriter(new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8), true);
        try {
            String reg = expect(fromChild, "REGISTERED");
            System.out.printf(Locale.ROOT, "%s of %d proxies registered (proxies in their own JVM)%n",
                    reg.split(" ")[1], proxies);
            Thread.sleep(TimeUnit.SECONDS.toMillis(warmup));

            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            CoordinatorStatus s0 = statusOrNull(coordinator);
            Map<String, Long> cpu0 = cpuByThreadGroup(threads);
            long proc0 = os.getProcessCpuTime();
            long[] cs0 = ContextSwitches.now();
            long[] mark0 = mark(toChild, fromChild);
            long t0 = System.nanoTime();
            Thread.sleep(TimeUnit.SECONDS.toMillis(measure));
            long t1 = System.nanoTime();
            long[] mark1 = mark(toChild, fromChild);
            Map<String, Long> cpu1 = cpuByThreadGroup(threads);
            long proc1 = os.getProcessCpuTime();
            long[] cs1 = ContextSwitches.now();
            CoordinatorStatus s1 = statusOrNull(coordinator);
            double secs = (t1 - t0) / 1e9;
            report(proxies, coflows, w.flowCount, epochMs, reportMs, scheduler, warmup, secs, s0, s1, cpu0, cpu1,
                    (proc1 - proc0) / 1e9 / secs, (mark1[1] - mark0[1]) / 1e9 / secs, (mark1[0] - mark0[0]) / secs,
                    mark1[2], (mark1[3] - mark0[3]) / secs, (cs1[0] - cs0[0]) / secs, (cs1[1] - cs0[1]) / secs,
                    (mark1[4] - mark0[4]) / secs, (mark1[5] - mark0[5]) / secs);
        } finally {
            toChild.println("stop");
            if (!child.waitFor(40, TimeUnit.SECONDS)) {
                System.out.println("the proxies' process did not stop within 40 s; killing it");
                child.destroyForcibly();
            }
            try {
                coordinator.close();
            } catch (IllegalStateException e) {
                System.out.println(e.getMessage());
            }
        }
        System.exit(0);
    }

    private static Process forkProxies(int port, int proxies, int coflows, int senders, int receivers, int reportMs)
            throws java.io.IOException {
        List<String> cmd = new ArrayList<String>();
        // A command prefix for the proxies' JVM, e.g. "taskset -c 1" (a core of its own) or "nice -n 10" (back to
        // normal priority under a coordinator started with nice -n -10: the child inherits its parent's niceness).
        String prefix = System.getenv("COURIER_PROXY_PREFIX");
        if (prefix != null && !prefix.trim().isEmpty()) {
            cmd.addAll(Arrays.asList(prefix.trim().split("\\s+")));
        }
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        String opts = System.getenv("COURIER_PROXY_JAVA_OPTS");
        cmd.addAll(Arrays.asList((opts == null || opts.trim().isEmpty() ? "-Xmx2g" : opts.trim()).split("\\s+")));
        cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ScaleProxies.class.getName());
        for (Object a : new Object[] {"127.0.0.1", port, proxies, coflows, senders, receivers, reportMs}) {
            cmd.add(String.valueOf(a));
        }
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the child's stdout up to a line starting with the word; fails when the child exits first. */
    private static String expect(BufferedReader in, String word) throws java.io.IOException {
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith(word + " ")) {
                return line;
            }
            System.out.println("proxies: " + line);
        }
        throw new IllegalStateException("the proxies' process ended before printing " + word);
    }

    /**
     * delivered decision updates, process CPU ns, proxies coordinated, report evaluations, voluntary and involuntary
     * context switches — as the proxies' process counts them.
     */
    private static long[] mark(PrintWriter out, BufferedReader in) throws java.io.IOException {
        out.println("mark");
        String[] f = expect(in, "MARK").split(" ");
        return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
            Long.parseLong(f[5]), Long.parseLong(f[6])};
    }

    private static void report(int proxies, int coflows, int flowCount, int epochMs, int reportMs, String scheduler,
            int warmup, double secs, CoordinatorStatus s0, CoordinatorStatus s1, Map<String, Long> cpu0,
            Map<String, Long> cpu1, double coordCores, double proxyCores, double deliveredPerSec, long coordinated,
            double evaluationsPerSec, double coordVoluntary, double coordInvoluntary, double proxyVoluntary,
            double proxyInvoluntary) {
        System.out.printf(Locale.ROOT, "load: %d proxies, %d active coflows, %d unified flows, report every %d ms,"
                + " epoch %d ms, scheduler %s, %d cores%n", proxies, coflows, flowCount, reportMs,
                epochMs, scheduler, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "window: %.1f s after %d s warm-up; proxies COORDINATED at the end: %d%n", secs,
                warmup, coordinated);
        if (s0 == null || s1 == null) {
            System.out.println("coordinator status: NO ANSWER within 30 s (the scheduling actor is backlogged:"
                    + " overloaded)");
            System.out.printf(Locale.ROOT, "RESULT flows=%d status=none coordCores=%.3f proxyCores=%.3f%n", flowCount,
                    coordCores, proxyCores);
            return;
        }
        CoordinatorStatus.EpochStats a = s0.epochs();
        CoordinatorStatus.EpochStats b = s1.epochs();
        long ticks = b.epochs - a.epochs;
        long skipped = b.skippedEpochs - a.skippedEpochs;
        long kept = b.keptEpochs - a.keptEpochs;
        long decisions = b.decisions - a.decisions;
        TickLateness late = b.tickLateness.minus(a.tickLateness);
        double due = secs * 1000.0 / epochMs;
        double meanWall = decisions == 0 ? 0.0 : (b.totalDecisionNanos - a.totalDecisionNanos) / 1e6 / decisions;
        double meanCpu = decisions == 0 ? 0.0 : (b.totalDecisionCpuNanos - a.totalDecisionCpuNanos) / 1e6 / decisions;
        double reports = (b.reportsReceived - a.reportsReceived) / secs;
        double updates = (b.decisionMessagesSent - a.decisionMessagesSent) / secs;
        long acksA = acksSent(a);
        long acksB = acksSent(b);
        double acks = acksA < 0 || acksB < 0 ? -1 : (acksB - acksA) / secs;
        System.out.printf(Locale.ROOT, "epoch keeping: %.0f boundaries due, %d ticks run (%.1f/s), %d skipped, %d kept"
                + " (ran and decided before the next boundary: %.1f%% of due)%n", due, ticks, ticks / secs, skipped,
                kept, 100.0 * kept / due);
        System.out.printf(Locale.ROOT, "tick lateness after its boundary: p50 < %.2f ms, p99 < %.2f ms, max since start"
                + " %.1f ms%n", late.quantileUpperMillis(0.5), late.quantileUpperMillis(0.99), late.maxNanos() / 1e6);
        System.out.printf(Locale.ROOT, "decision time: mean %.3f ms wall / %.3f ms CPU over %d runs, max wall since"
                + " start %.3f ms%n", meanWall, meanCpu, decisions, b.maxDecisionNanos / 1e6);
        System.out.printf(Locale.ROOT, "messages: reports evaluated by the proxies %.0f/s (every %d ms: %.0f/s due),"
                + " reports sent and received %.0f/s (%.1f %% of the evaluations), decision updates out %.0f/s,"
                + " delivered %.0f/s, report acks out %s, rows rejected %d, scheduler failures %d%n", evaluationsPerSec,
                reportMs, proxies * 1000.0 / reportMs, reports,
                evaluationsPerSec > 0 ? 100.0 * reports / evaluationsPerSec : 0.0, updates, deliveredPerSec,
                acks < 0 ? "not counted by this build" : String.format(Locale.ROOT, "%.0f/s", acks),
                b.rowsRejected - a.rowsRejected, b.schedulerFailures);
        System.out.printf(Locale.ROOT, "cpu: coordinator process %.2f cores, proxies' process %.2f cores%n", coordCores,
                proxyCores);
        System.out.printf(Locale.ROOT, "context switches/s (voluntary + involuntary, live threads): coordinator %.0f +"
                + " %.0f, proxies %.0f + %.0f%n", coordVoluntary, coordInvoluntary, proxyVoluntary, proxyInvoluntary);
        List<Map.Entry<String, Long>> groups = new ArrayList<Map.Entry<String, Long>>();
        for (Map.Entry<String, Long> e : cpu1.entrySet()) {
            Long before = cpu0.get(e.getKey());
            groups.add(new java.util.AbstractMap.SimpleEntry<String, Long>(e.getKey(),
                    e.getValue() - (before == null ? 0L : before)));
        }
        Collections.sort(groups, (x, y) -> Long.compare(y.getValue(), x.getValue()));
        for (int i = 0; i < Math.min(6, groups.size()); i++) {
            System.out.printf(Locale.ROOT, "  coordinator threads %-60s %.3f cores%n", groups.get(i).getKey(),
                    groups.get(i).getValue() / 1e9 / secs);
        }
        System.out.printf(Locale.ROOT, "RESULT flows=%d due=%.0f ticks=%d kept=%d skipped=%d lateP50=%.2f lateP99=%.2f"
                + " lateMax=%.1f wallMs=%.3f cpuMs=%.3f evaluations=%.0f reports=%.0f updates=%.0f acks=%.0f"
                + " delivered=%.0f"
                + " coordCores=%.3f proxyCores=%.3f coordinated=%d csCoord=%.0f+%.0f csProxies=%.0f+%.0f%n", flowCount,
                due, ticks, kept, skipped,
                late.quantileUpperMillis(0.5), late.quantileUpperMillis(0.99), late.maxNanos() / 1e6, meanWall, meanCpu,
                evaluationsPerSec, reports, updates, acks, deliveredPerSec, coordCores, proxyCores, coordinated, coordVoluntary,
                coordInvoluntary, proxyVoluntary, proxyInvoluntary);
    }

    /** Report acks sent, or -1 for a build whose status does not count them (compared side by side with this one). */
    private static long acksSent(CoordinatorStatus.EpochStats e) {
        try {
            return e.getClass().getField("reportAcksSent").getLong(e);
        } catch (ReflectiveOperationException ex) {
            return -1;
        }
    }

    /** Waits (at most 30 s) until the scheduling actor knows {@code n} coflows. */
    private static void awaitCoflows(Coordinator c, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            CoordinatorStatus s = statusOrNull(c);
            if (s != null && s.coflows().size() >= n) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the coordinator did not register the workload's " + n + " coflows within 30 s");
    }

    private static CoordinatorStatus statusOrNull(Coordinator c) {
        try {
            return c.status(Duration.ofSeconds(30)).toCompletableFuture().get(40, TimeUnit.SECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    /** CPU nanoseconds of live threads, grouped by name without the trailing number (one pool, one group). */
    private static Map<String, Long> cpuByThreadGroup(ThreadMXBean mx) {
        Map<String, Long> out = new HashMap<String, Long>();
        for (long id : mx.getAllThreadIds()) {
            ThreadInfo info = mx.getThreadInfo(id);
            long t = mx.getThreadCpuTime(id);
            if (info == null || t < 0) {
                continue;
            }
            String key = info.getThreadName().replaceAll("[-#]?\\d+$", "");
            out.put(key, (out.containsKey(key) ? out.get(key) : 0L) + t);
        }
        return out;
    }

    private static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }
}
