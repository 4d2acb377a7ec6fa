package io.courier.coordinator.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.client.ReportGate;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.BehaviorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestInbox;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Report suppression does not change what the coordinator decides, in a deterministic case: the real
 * {@link SchedulingActor} on a virtual clock, six nodes, three coflows (one arriving later), senders moving
 * bytes at the decided rates in 10 ms steps and finishing. Run twice from the same start: once with every node
 * reporting every 10 ms (no suppression, nothing extrapolated), once with each node's {@link ReportGate} at the
 * default tolerance (1 %) and heartbeat (100 ms) deciding which evaluations are sent, the coordinator
 * extrapolating the rest. After every epoch tick the decisions (every flow's rate and priority, every coflow's
 * rank) must be the same, bit for bit, while the suppressed run sends far fewer reports.
 *
 * <p>Why exact: between events, a flow moves a constant whole number of bytes per step (the sender applies its
 * decided rate in whole MB/s), so the protocol's extrapolation (bytes sent + measured rate × age) lands on the
 * byte count the sender has; at events (arrival, a rate change, a finish) the gate reports at once.
 */
@Timeout(60)
class SuppressedReportingTest {
    private static final long STEP_NANOS = 10_000_000L;
    private static final long CAPACITY = 125_000_000L;
    private static final int NODES = 6;
    private static final int STEPS = 150;

    @ParameterizedTest
    @ValueSource(strings = {"varys", "aalo", "sincronia"})
    void decisionsEqualThoseOfUnsuppressedReporting(String scheduler) {
        Run every = new Run(scheduler, 0.0).go();
        Run suppressed = new Run(scheduler, 0.01).go();
        assertEquals(every.decisions.size(), suppressed.decisions.size());
        for (int i = 0; i < every.decisions.size(); i++) {
            assertEquals(every.decisions.get(i), suppressed.decisions.get(i), scheduler + ": decisions after tick "
                    + (i + 1) + " differ");
        }
        // The scenario exercises the scheduler: several distinct decisions, every flow finished.
        assertTrue(new HashSet<String>(every.decisions).size() >= 3, scheduler + ": decisions never changed: "
                + every.decisions.get(0));
        assertTrue(every.allFinished && suppressed.allFinished, scheduler + ": not every flow finished");
        assertEquals((long) NODES * STEPS, every.reportsSent);
        assertTrue(suppressed.reportsSent < every.reportsSent / 3, scheduler + ": suppression sent "
                + suppressed.reportsSent + " of " + every.reportsSent + " reports");
    }

    /** One run of the scenario; {@code tolerance} 0 = every evaluation is sent. */
    private static final class Run {
        final String scheduler;
        final double tolerance;
        final List<String> decisions = new ArrayList<String>();
        long reportsSent;
        boolean allFinished;

        Run(String scheduler, double tolerance) {
            this.scheduler = scheduler;
            this.tolerance = tolerance;
        }

        Run go() {
            AtomicLong clock = new AtomicLong(0);
            TestInbox<CoordinatorCommand> guardian = TestInbox.create();
            BehaviorTestKit<CoordinatorCommand> kit = BehaviorTestKit.create(SchedulingActor.create(
                    SchedulerRegistry.standard().create(scheduler, Collections.<String, String>emptyMap()), "test",
                    10, 600_000, guardian.getRef(), clock::get));
            List<TestInbox<ClientCommand>> inbox = new ArrayList<TestInbox<ClientCommand>>();
            TreeMap<String, NodeEntry> table = new TreeMap<String, NodeEntry>();
            List<ReportGate> gates = new ArrayList<ReportGate>();
            for (int i = 0; i < NODES; i++) {
                TestInbox<ClientCommand> in = TestInbox.create();
                inbox.add(in);
                String id = "nm-" + i;
                table.put(id, new NodeEntry(new NodeInfo(id, id + ":1", id + ":2", CAPACITY, CAPACITY), in.getRef(),
                        CAPACITY, CAPACITY, 0));
                gates.add(new ReportGate(tolerance, STEP_NANOS, 100_000_000L));
            }
            kit.run(new Internal.NodesChanged(new NodeTable(table, 1)));

            // job_a: 2 flows of 30 MB; job_b: 2 flows of 80 MB sharing nm-0's uplink with job_a; job_c (20 MB,
            // arrives at 200 ms) competes with job_b at nm-2 and with job_a at nm-4.
            List<Sim> sims = new ArrayList<Sim>();
            sims.add(new Sim("job_a", 0, 3, 30_000_000L));
            sims.add(new Sim("job_a", 1, 4, 30_000_000L));
            sims.add(new Sim("job_b", 0, 4, 80_000_000L));
            sims.add(new Sim("job_b", 2, 5, 80_000_000L));
            sims.add(new Sim("job_c", 2, 4, 20_000_000L));
            Map<String, CoflowEntry> coflows = new LinkedHashMap<String, CoflowEntry>();
            coflows.put("job_a", new CoflowEntry("job_a", CoflowId.of(1), 1.0, "default", 0.0));
            coflows.put("job_b", new CoflowEntry("job_b", CoflowId.of(2), 1.0, "default", 0.0));
            kit.run(new Internal.CoflowsChanged(new CoflowTable(coflows)));
            Set<String> active = new HashSet<String>(coflows.keySet());

            for (int step = 1; step <= STEPS; step++) {
                long now = step * STEP_NANOS;
                clock.set(now);
                for (Sim s : sims) {
                    if (active.contains(s.job)) {
                        s.advance();
                    }
                }
                if (step == 20) {
                    coflows.put("job_c", new CoflowEntry("job_c", CoflowId.of(3), 1.0, "default", 0.2));
                    kit.run(new Internal.CoflowsChanged(new CoflowTable(coflows)));
                    active.add("job_c");
                    deliver(inbox, sims);
                }
                for (int i = 0; i < NODES; i++) {
                    List<FlowReport> rows = new ArrayList<FlowReport>();
                    for (Sim s : sims) {
                        if (s.src == i && active.contains(s.job)) {
                            rows.add(s.report());
                        }
                    }
                    if (gates.get(i).offer(rows, now)) {
                        kit.run(new NodeReport("nm-" + i, step, tolerance == 0 ? 0 : 100, rows, null));
                        reportsSent++;
                    }
                }
                kit.run(Internal.Tick.EPOCH);
                decisions.add(snapshot(kit));
                deliver(inbox, sims);
                kit.getAllEffects();
                kit.clearLog();
                guardian.getAllReceived();
            }
            allFinished = true;
            for (Sim s : sims) {
                allFinished &= s.sent == s.size;
            }
            return this;
        }

        /** Every flow's decided rate and priority and every coflow's rank, as the status reports them. */
        private static String snapshot(BehaviorTestKit<CoordinatorCommand> kit) {
            TestInbox<CoordinatorStatus> reply = TestInbox.create();
            kit.run(new Internal.GetStatus(reply.getRef()));
            CoordinatorStatus st = reply.receiveMessage();
            StringBuilder b = new StringBuilder();
            for (CoordinatorStatus.FlowStatus f : st.flows()) {
                b.append(String.format(Locale.ROOT, "%s %s->%s rate=%s prio=%d; ", f.jobId, f.srcNode, f.dstNode,
                        Double.toString(f.rate), f.priority));
            }
            for (CoordinatorStatus.CoflowStatus c : st.coflows()) {
                b.append(c.jobId).append(" rank=").append(c.rank).append("; ");
            }
            return b.toString();
        }

        private static void deliver(List<TestInbox<ClientCommand>> inbox, List<Sim> sims) {
            for (int i = 0; i < inbox.size(); i++) {
                for (ClientCommand m : inbox.get(i).getAllReceived()) {
                    if (m instanceof DecisionUpdate) {
                        for (FlowDecision d : ((DecisionUpdate) m).flows()) {
                            for (Sim s : sims) {
                                if (s.src == i && s.job.equals(d.jobId()) && ("nm-" + s.dst).equals(d.dstNode())) {
                                    s.apply(d.rate());
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /** A sender's flow: moves its decided rate, in whole MB/s, per 10 ms step. */
    private static final class Sim {
        final String job;
        final int src;
        final int dst;
        final long size;
        long sent;
        long bytesPerStep;
        long lastMoved = -1;

        Sim(String job, int src, int dst, long size) {
            this.job = job;
            this.src = src;
            this.dst = dst;
            this.size = size;
        }

        void apply(double rate) {
            bytesPerStep = Math.round(rate / 1e6) * 10_000L;
        }

        void advance() {
            long moved = Math.min(bytesPerStep, size - sent);
            sent += moved;
            lastMoved = moved;
        }

        FlowReport report() {
            double measured = lastMoved < 0 ? -1 : lastMoved * 1e9 / STEP_NANOS;
            return new FlowReport(job, "nm-" + src, "nm-" + dst, sent, size - sent, -1, measured, sent == size);
        }
    }
}
