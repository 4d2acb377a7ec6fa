package io.courier.coordinator.actors;

import io.courier.coordinator.bench.ScaleWorkload;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.ReportAck;
import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.testkit.typed.javadsl.BehaviorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestInbox;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The scheduling actor's own CPU cost per epoch, without wire, threads or simulated proxies competing for the
 * CPU (a benchmark, NOT a test; bench/coordinator-epoch-cost.sh): the real {@link SchedulingActor} run
 * synchronously in a {@link BehaviorTestKit} on this thread, fed the {@link ScaleWorkload}'s reports (every node
 * reports once per epoch, senders advance at the decided rates in virtual time) and epoch ticks. It measures the
 * thread's CPU time for ingesting the reports and for the tick (state building, scheduler call, per-node
 * decision diff and fan-out), and counts the messages the actor sends (decision updates, report acks). Messages
 * are handed to in-memory inboxes, so serialization is not included (its cost per message is the wire
 * benchmark's). CPU time, not wall time: comparable across runs on a loaded machine, within noise.
 *
 * <p>Arguments: nodes coflows senders receivers warmupEpochs measuredEpochs scheduler (defaults 1000 100 3 3
 * 300 1000 varys).
 */
public final class EpochCostBench {
    private EpochCostBench() {
    }

    public static void main(String[] args) {
        int nodes = arg(args, 0, 1000);
        int coflows = arg(args, 1, 100);
        int senders = arg(args, 2, 3);
        int receivers = arg(args, 3, 3);
        int warmup = arg(args, 4, 300);
        int measured = arg(args, 5, 1000);
        String schedulerName = args.length > 6 ? args[6] : "varys";
        long epochNanos = 10_000_000L;

        ScaleWorkload w = new ScaleWorkload(nodes, coflows, senders, receivers);
        CoflowScheduler scheduler = SchedulerRegistry.standard().create(schedulerName,
                Collections.<String, String>emptyMap());
        TestInbox<CoordinatorCommand> guardian = TestInbox.create();
        final AtomicLong clock = new AtomicLong();
        BehaviorTestKit<CoordinatorCommand> kit = BehaviorTestKit.create(
                schedulingActor(scheduler, guardian.getRef(), clock));

        List<TestInbox<ClientCommand>> inbox = new ArrayList<TestInbox<ClientCommand>>();
        TreeMap<String, NodeEntry> table = new TreeMap<String, NodeEntry>();
        List<Map<String, ScaleWorkload.SimFlow>> byKey = new ArrayList<Map<String, ScaleWorkload.SimFlow>>();
        for (int i = 0; i < nodes; i++) {
            TestInbox<ClientCommand> in = TestInbox.create();
            inbox.add(in);
            String id = ScaleWorkload.node(i);
            table.put(id, new NodeEntry(new NodeInfo(id, id + ":13562", id + ":13563", 125_000_000L, 125_000_000L),
                    in.getRef(), 125_000_000L, 125_000_000L, 0));
            Map<String, ScaleWorkload.SimFlow> m = new HashMap<String, ScaleWorkload.SimFlow>();
            for (ScaleWorkload.SimFlow f : w.sentBy(i)) {
                m.put(f.job + " " + f.dst, f);
            }
            byKey.add(m);
        }
        kit.run(new Internal.NodesChanged(new NodeTable(table, 1)));
        Map<String, CoflowEntry> cs = new LinkedHashMap<String, CoflowEntry>();
        for (int c = 0; c < w.jobs.size(); c++) {
            cs.put(w.jobs.get(c), new CoflowEntry(w.jobs.get(c), CoflowId.of(c + 1), 1.0, "default", c * 0.001));
        }
        kit.run(new Internal.CoflowsChanged(new CoflowTable(cs)));

        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long reportCpu = 0;
        long tickCpu = 0;
        long updates = 0;
        long acks = 0;
        long reports = 0;
        long rows = 0;
        for (int e = 1; e <= warmup + measured; e++) {
            boolean measuring = e > warmup;
            long now = e * epochNanos;
            clock.set(now - epochNanos / 2); // reports arrive mid-epoch, the tick at the boundary
            long c0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < nodes; i++) {
                List<ScaleWorkload.SimFlow> mine = w.sentBy(i);
                List<FlowReport> r = new ArrayList<FlowReport>(mine.size());
                for (ScaleWorkload.SimFlow f : mine) {
                    r.add(f.advance(now));
                }
                long t0 = mx.getCurrentThreadCpuTime();
                kit.run(new EpochReport(ScaleWorkload.node(i), e, r, inbox.get(i).getRef()));
                if (measuring) {
                    reportCpu += mx.getCurrentThreadCpuTime() - t0;
                    reports++;
                    rows += r.size();
                }
            }
            clock.set(now);
            long t1 = mx.getCurrentThreadCpuTime();
            kit.run(Internal.Tick.EPOCH);
            long t2 = mx.getCurrentThreadCpuTime();
            if (measuring) {
                tickCpu += t2 - t1;
            }
            kit.getAllEffects();
            kit.clearLog();
            guardian.getAllReceived();
            for (int i = 0; i < nodes; i++) {
                for (ClientCommand m : inbox.get(i).getAllReceived()) {
                    if (m instanceof DecisionUpdate) {
                        if (measuring) {
                            updates++;
                        }
                        String self = ScaleWorkload.node(i);
                        for (FlowDecision d : ((DecisionUpdate) m).flows()) {
                            if (d.srcNode().equals(self)) {
                                ScaleWorkload.SimFlow f = byKey.get(i).get(d.jobId() + " " + d.dstNode());
                                if (f != null) {
                                    f.rate = d.rate();
                                }
                            }
                        }
                    } else if (m instanceof ReportAck && measuring) {
                        acks++;
                    }
                }
            }
            if (e == 1 && c0 < 0) {
                throw new IllegalStateException("thread CPU time is not available on this JVM");
            }
        }
        System.out.printf(Locale.ROOT, "load: %d nodes, %d coflows, %d unified flows, %s, %d measured epochs after %d"
                + " warm-up (virtual 10 ms epochs, every node reports once per epoch)%n", nodes, coflows, w.flowCount,
                schedulerName, measured, warmup);
        System.out.printf(Locale.ROOT, "report ingestion: %.2f us CPU per report (%.1f rows), %.2f ms CPU per epoch%n",
                reportCpu / 1e3 / reports, (double) rows / reports, reportCpu / 1e6 / measured);
        System.out.printf(Locale.ROOT, "epoch tick (state, scheduler, diff, fan-out): %.3f ms CPU%n",
                tickCpu / 1e6 / measured);
        System.out.printf(Locale.ROOT, "messages per epoch: %.1f decision updates, %.1f report acks%n",
                (double) updates / measured, (double) acks / measured);
        System.out.printf(Locale.ROOT, "RESULT flows=%d reportUs=%.3f reportMsPerEpoch=%.3f tickMs=%.3f"
                + " updatesPerEpoch=%.1f acksPerEpoch=%.1f%n", w.flowCount, reportCpu / 1e3 / reports,
                reportCpu / 1e6 / measured, tickCpu / 1e6 / measured, (double) updates / measured,
                (double) acks / measured);
    }

    /**
     * The actor on the virtual clock when this build has the clock parameter; builds from before it (compared
     * side by side with the same benchmark) run on System.nanoTime, which they only use for counters.
     */
    @SuppressWarnings("unchecked")
    private static Behavior<CoordinatorCommand> schedulingActor(CoflowScheduler scheduler,
            ActorRef<CoordinatorCommand> guardian, final AtomicLong clock) {
        try {
            Method m = SchedulingActor.class.getDeclaredMethod("create", CoflowScheduler.class, String.class,
                    long.class, long.class, ActorRef.class, LongSupplier.class);
            LongSupplier virtual = clock::get;
            return (Behavior<CoordinatorCommand>) m.invoke(null, scheduler, "bench", 10L, 600_000L, guardian, virtual);
        } catch (NoSuchMethodException e) {
            System.out.println("(this build's scheduling actor has no clock parameter: it runs on System.nanoTime)");
            return SchedulingActor.create(scheduler, "bench", 10, 600_000, guardian);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the scheduling actor", e);
        }
    }

    private static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }
}
