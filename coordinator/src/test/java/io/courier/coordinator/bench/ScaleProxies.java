package io.courier.coordinator.bench;

import com.sun.management.OperatingSystemMXBean;
import com.typesafe.config.ConfigFactory;
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
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
 * The scale benchmark's simulated proxies, in their own JVM (forked by {@link CoordinatorScaleHarness}, so that
 * the coordinator's CPU and epoch keeping are measured apart from theirs): N real {@link ClientActor}s in one
 * actor system, reporting the {@link ScaleWorkload}'s flows to the coordinator over Artery TCP + Kryo; senders
 * move bytes at the decided rates. Talks to its parent on stdin/stdout: prints {@code REGISTERED n} once all
 * proxies are coordinated (or after 60 s), then answers each {@code mark} line with
 * {@code MARK <decision updates delivered> <process CPU ns> <proxies coordinated> <report evaluations>
 * <voluntary context switches> <involuntary context switches>}, and exits on {@code stop}
 * or end of input.
 *
 * <p>Arguments: coordinatorHost coordinatorPort proxies coflows senders receivers reportMs.
 */
public final class ScaleProxies {
    private ScaleProxies() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            throw new IllegalArgumentException("usage: ScaleProxies host port proxies coflows senders receivers reportMs;"
                    + " got " + args.length + " arguments");
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int proxies = Integer.parseInt(args[2]);
        ScaleWorkload w = new ScaleWorkload(proxies, Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                Integer.parseInt(args[5]));
        int reportMs = Integer.parseInt(args[6]);

        final AtomicLong delivered = new AtomicLong();
        // How often the clients evaluated their flows (one per proxy per report interval); under report suppression
        // only some evaluations are sent, and the coordinator counts those it received.
        final AtomicLong evaluations = new AtomicLong();
        final AtomicInteger coordinated = new AtomicInteger();
        ClientSettings.Builder csb = ClientSettings.builder(host, port).reportIntervalMillis(reportMs)
                .ackTimeoutMillis(5_000).registerRetryMillis(1_000).maxFrameBytes(1 << 20);
        // COURIER_REPORT_TOLERANCE: the clients' report suppression tolerance (0 = report every interval); unset =
        // the client's default. Only called when set, so these classes also run against builds without the setting.
        String tolerance = System.getenv("COURIER_REPORT_TOLERANCE");
        if (tolerance != null && !tolerance.trim().isEmpty()) {
            csb.reportTolerance(Double.parseDouble(tolerance.trim()));
        }
        ClientSettings cs = csb.build();
        final List<Behavior<ClientCommand>> clients = new ArrayList<Behavior<ClientCommand>>();
        // Per client, the jobs it sends: it registers them as a proxy does (a client reports only jobs it registered).
        final List<Set<String>> jobsOf = new ArrayList<Set<String>>();
        for (int i = 0; i < proxies; i++) {
            final List<ScaleWorkload.SimFlow> mine = w.sentBy(i);
            Set<String> jobs = new LinkedHashSet<String>();
            for (ScaleWorkload.SimFlow f : mine) {
                jobs.add(f.job);
            }
            jobsOf.add(jobs);
            final Map<String, ScaleWorkload.SimFlow> byKey = new HashMap<String, ScaleWorkload.SimFlow>();
            for (ScaleWorkload.SimFlow f : mine) {
                byKey.put(f.job + " " + f.dst, f);
            }
            final String self = ScaleWorkload.node(i);
            // Both callbacks run on this client's actor thread.
            ReportSource source = () -> {
                evaluations.incrementAndGet();
                List<FlowReport> rows = new ArrayList<FlowReport>(mine.size());
                long now = System.nanoTime();
                for (ScaleWorkload.SimFlow f : mine) {
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
                            ScaleWorkload.SimFlow f = byKey.get(d.jobId() + " " + d.dstNode());
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
        ActorSystem<Void> system = ActorSystem.create(Behaviors.<Void>setup(ctx -> {
            long arrival = System.currentTimeMillis();
            for (int i = 0; i < clients.size(); i++) {
                ActorRef<ClientCommand> client = ctx.spawn(clients.get(i), "proxy-" + i);
                for (String job : jobsOf.get(i)) {
                    client.tell(ClientActor.registration(new CoflowRegistered(job, Double.NaN, "NORMAL", arrival)));
                }
            }
            return Behaviors.empty();
        }), "proxies", BootstrapSetup.create(PekkoSettings.remoting("127.0.0.1", 0, 1 << 20, ConfigFactory.load())));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (coordinated.get() < proxies && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.println("REGISTERED " + coordinated.get());
        System.out.flush();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("stop")) {
            if (line.trim().equals("mark")) {
                long[] sw = ContextSwitches.now();
                System.out.printf(Locale.ROOT, "MARK %d %d %d %d %d %d%n", delivered.get(), os.getProcessCpuTime(),
                        coordinated.get(), evaluations.get(), sw[0], sw[1]);
                System.out.flush();
            }
        }
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        System.exit(0);
    }
}
