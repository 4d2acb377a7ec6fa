package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeReport;
import io.courier.coordinator.protocol.NotRegistered;
import io.courier.coordinator.protocol.ReportAck;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.coordinator.status.TickLateness;
import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The coordinator's second driver of the scheduler library (the simulator is the first): every epoch, and at
 * once when a coflow arrives or completes, it builds a {@link ClusterState} from the latest reports — one
 * flow per (coflow, source node, destination node), the unified flow of Courier's Merge — runs the
 * configured {@link CoflowScheduler} on the view its {@code needs()} allow, turns order-based decisions into
 * rates with the scheduler's enforcer, and pushes each node ONLY the decisions for flows it sends or receives.
 *
 * <p>Flow sizes: a flow's size is the reported final size when known, else bytes sent + bytes pending at the
 * sender (what the sender has been asked for so far); non-clairvoyant schedulers never see either. Reports
 * from unknown nodes are answered with {@link NotRegistered}; rows for unknown jobs or nodes are dropped and
 * logged (once per job or node), never fatal. A failing scheduler call is logged and the previous decisions
 * stay in force. Everything here runs on the actor's thread.
 */
public final class SchedulingActor extends AbstractBehavior<CoordinatorCommand> {
    /** The longest interval between two batches of reporting nodes sent to the node registry (against expiry). */
    private static final long MAX_SEEN_FLUSH_NANOS = 500_000_000L;
    /** Bound on the "already warned about" sets, so a flood of bogus names cannot grow them forever. */
    private static final int WARN_MEMORY = 1_000;
    /**
     * A node hears from the coordinator at least this often while it reports: its decisions again when they did
     * not change (which also repairs a lost update), else an acknowledgement of its report. Well inside the
     * clients' answer timeout (ack-timeout, 2 s by default), so that no proxy falls back while all is well.
     */
    static final long HEARTBEAT_NANOS = 100_000_000L;

    private final CoflowScheduler scheduler;
    private final String schedulerName;
    private final String coordinatorId;
    private final long epochMillis;
    private final long epochNanos;
    private final long startNanos;
    private final ActorRef<CoordinatorCommand> guardian;
    private final long seenFlushNanos;
    /** The pending epoch tick (sent with scheduleOnce, see {@link Internal.Tick}); cancelled when the actor stops. */
    private Cancellable nextTick;
    /** Time for epochs, heartbeats and report ages (System.nanoTime; a benchmark drives it in virtual time). */
    private final LongSupplier clock;
    private long nextBoundaryNanos;

    private NodeTable nodes = NodeTable.EMPTY;
    private CoflowTable coflows = CoflowTable.EMPTY;
    private Network network;
    private Map<String, Integer> hostIndex = Collections.emptyMap();
    // Insertion order = ascending flow ids: states built in this order need no flow-id hash index or sort.
    private final Map<FlowKey, FlowState> flows = new LinkedHashMap<FlowKey, FlowState>();
    private long nextFlowId = 1;
    private final Map<String, NodeSession> sessions = new HashMap<String, NodeSession>();
    private final Set<String> seenSinceFlush = new HashSet<String>();
    private long lastSeenFlush;
    private final Map<CoflowId, Integer> lastRanks = new HashMap<CoflowId, Integer>();
    private final Set<String> warnedNodes = new HashSet<String>();
    private final Set<String> warnedJobs = new HashSet<String>();
    /** Jobs a report named before their coflow was known here (forgotten once it is; at most WARN_MEMORY). */
    private final Set<String> unknownOnce = new HashSet<String>();
    /**
     * Jobs whose coflow completed here, most recent last (as many as the registry remembers): every node of a job
     * reports until its own NodeManager ends the job, so the first completion is followed by other nodes' last
     * rows, which are dropped quietly rather than warned about and answered as unknown jobs.
     */
    private final RecentJobs completedJobs = new RecentJobs(CoflowRegistry.COMPLETED_MEMORY);

    // Counters (status and /metrics).
    private long epoch;
    private long decisions;
    private long lastTickNanos;
    private long lastDecisionNanos;
    private long maxDecisionNanos;
    private long totalDecisionNanos;
    private long lastDecisionCpuNanos;
    private long totalDecisionCpuNanos;
    // CPU time of the actor's thread: on a shared machine the wall time of a round includes time descheduled.
    private final java.lang.management.ThreadMXBean threadCpu = java.lang.management.ManagementFactory.getThreadMXBean();
    private long lastEpochGapNanos;
    private long maxEpochGapNanos;
    private long lateEpochs;
    private long skippedEpochs;
    private long keptEpochs;
    private final TickLateness.Recorder tickLateness = new TickLateness.Recorder();
    private long reportsReceived;
    private long reportsRejected;
    private long rowsRejected;
    private long decisionMessagesSent;
    private long reportAcksSent;
    private long schedulerFailures;

    private SchedulingActor(ActorContext<CoordinatorCommand> ctx, CoflowScheduler scheduler, String coordinatorId,
            long epochMillis, long nodeExpiryMillis, ActorRef<CoordinatorCommand> guardian, LongSupplier clock) {
        super(ctx);
        this.clock = clock;
        this.startNanos = clock.getAsLong();
        this.lastSeenFlush = startNanos;
        this.scheduler = scheduler;
        this.schedulerName = scheduler.name();
        this.coordinatorId = coordinatorId;
        this.epochMillis = epochMillis;
        this.epochNanos = epochMillis * 1_000_000L;
        this.guardian = guardian;
        // Well inside the expiry, so that a reporting node is never expired between two batches.
        this.seenFlushNanos = Math.min(MAX_SEEN_FLUSH_NANOS, nodeExpiryMillis * 1_000_000L / 4);
        // Epoch boundaries are start + k * epoch. Each tick schedules the next boundary itself: a fixed-rate
        // timer would fire a burst of catch-up ticks after a stall, while boundaries that passed during a
        // stall are counted as skipped and not run.
        this.nextBoundaryNanos = startNanos + epochNanos;
        this.nextTick = ctx.scheduleOnce(Duration.ofMillis(epochMillis), ctx.getSelf(), Internal.Tick.EPOCH);
    }

    /**
     * @param guardian where {@link Internal.NodesSeen} batches go (it forwards them to the node registry)
     */
    static Behavior<CoordinatorCommand> create(final CoflowScheduler scheduler, final String coordinatorId,
            final long epochMillis, final long nodeExpiryMillis, final ActorRef<CoordinatorCommand> guardian) {
        return create(scheduler, coordinatorId, epochMillis, nodeExpiryMillis, guardian, System::nanoTime);
    }

    /** As above with the actor's clock (nanoseconds, monotonic): for driving it in virtual time. */
    static Behavior<CoordinatorCommand> create(final CoflowScheduler scheduler, final String coordinatorId,
            final long epochMillis, final long nodeExpiryMillis, final ActorRef<CoordinatorCommand> guardian,
            final LongSupplier clock) {
        return Behaviors.setup(ctx -> new SchedulingActor(ctx, scheduler, coordinatorId, epochMillis,
                nodeExpiryMillis, guardian, clock));
    }

    @Override
    public Receive<CoordinatorCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(EpochReport.class, this::onReport)
                .onMessage(NodeReport.class, this::onNodeReport)
                .onMessage(Internal.NodesChanged.class, this::onNodes)
                .onMessage(Internal.CoflowsChanged.class, this::onCoflows)
                .onMessage(Internal.GetStatus.class, this::onStatus)
                .onMessageEquals(Internal.Tick.EPOCH, this::onEpoch)
                .onSignal(PostStop.class, signal -> {
                    nextTick.cancel();
                    return this;
                })
                .build();
    }

    // ---- reports ----------------------------------------------------------------------------------------

    private Behavior<CoordinatorCommand> onReport(EpochReport r) {
        return ingest(r.nodeId(), r.epoch(), r.flows(), r.replyTo(), false);
    }

    /** The compact report: answered through the registration's reference, rows extrapolated when suppressed. */
    private Behavior<CoordinatorCommand> onNodeReport(NodeReport r) {
        return ingest(r.nodeId(), r.epoch(), r.flows(), r.replyTo(), r.heartbeatMillis() > 0);
    }

    /**
     * @param replyTo the report's own reply reference, or null (a {@link NodeReport} without one: a known node is
     *     answered through its registration's reference, an unknown one cannot be answered)
     * @param extrapolated whether the node suppresses reports, so its rows are predictions' starting points
     */
    private Behavior<CoordinatorCommand> ingest(String node, long reportEpoch, List<FlowReport> rows,
            ActorRef<ClientCommand> replyTo, boolean extrapolated) {
        reportsReceived++;
        NodeEntry entry = nodes.get(node);
        if (entry == null) {
            reportsRejected++;
            if (replyTo != null) {
                warnOnce(warnedNodes, node, "report from unknown node {} rejected (asked to register)", node);
                replyTo.tell(new NotRegistered(node));
            } else {
                // A compact report without a reference: its client asks again, with one, once it hears nothing.
                warnOnce(warnedNodes, node, "report from unknown node {} rejected (no reply reference in it; the"
                        + " client includes one after a silence and is then asked to register)", node);
            }
            return this;
        }
        long now = clock.getAsLong();
        NodeSession session = session(node);
        session.lastReportNanos = now;
        seenSinceFlush.add(node);
        List<String> unknownJobs = null;
        for (FlowReport row : rows) {
            if (row.srcNode().equals(row.dstNode())) {
                // A node-local flow does not cross the network, so it is not in the model: there it would hold
                // capacity of both of the node's ports. (Proxies do not send such rows; this is the rule.)
                continue;
            }
            boolean fromSender = row.srcNode().equals(node);
            if (!fromSender && !row.dstNode().equals(node)) {
                rowsRejected++;
                warnOnce(warnedNodes, node + "/foreign", "node {} reported flow {} -> {} that it neither sends nor "
                        + "receives; row dropped", node, row.srcNode() + " " + row.jobId(), row.dstNode());
                continue;
            }
            if (coflows.get(row.jobId()) == null) {
                if (completedJobs.contains(row.jobId())) {
                    continue;
                }
                rowsRejected++;
                if (unknownJobs == null) {
                    unknownJobs = new ArrayList<String>();
                }
                if (!unknownJobs.contains(row.jobId())) {
                    unknownJobs.add(row.jobId());
                    // A registration reaches this actor through the registry, so a node's first rows of a job can
                    // overtake it (the client sends its registration first): a job is worth a warning only when a
                    // later report names it still unknown, after the ack has asked for the registration again.
                    if (unknownOnce.size() < WARN_MEMORY && unknownOnce.add(row.jobId())) {
                        getContext().getLog().debug("report rows for job {} before its coflow; dropped, registration"
                                + " asked for again", row.jobId());
                    } else {
                        warnOnce(warnedJobs, row.jobId(), "report rows for unknown job {} (no coflow registered)"
                                + " dropped", row.jobId());
                    }
                }
                continue;
            }
            String peer = fromSender ? row.dstNode() : row.srcNode();
            if (nodes.get(peer) == null) {
                rowsRejected++;
                warnOnce(warnedNodes, peer, "report rows naming unregistered node {} dropped", peer);
                continue;
            }
            FlowKey key = new FlowKey(row.jobId(), row.srcNode(), row.dstNode());
            FlowState s = flows.get(key);
            if (s == null) {
                s = new FlowState(key, FlowId.of(nextFlowId++));
                flows.put(key, s);
            }
            s.update(fromSender, row, now, extrapolated);
        }
        // Any answer is the client's heartbeat: acknowledge a report only when the node has not heard from us
        // within the heartbeat interval (decision updates count), and always when it names unknown jobs.
        if (unknownJobs != null || !session.toldWithin(now, HEARTBEAT_NANOS)) {
            // An EpochReport's own reference, else the one the node registered.
            (replyTo != null ? replyTo : entry.client()).tell(new ReportAck(reportEpoch,
                    unknownJobs == null ? Collections.<String>emptyList() : unknownJobs));
            session.lastToldNanos = now;
            reportAcksSent++;
        }
        return this;
    }

    private NodeSession session(String node) {
        NodeSession s = sessions.get(node);
        if (s == null) {
            s = new NodeSession();
            sessions.put(node, s);
        }
        return s;
    }

    private void warnOnce(Set<String> warned, String key, String format, Object... args) {
        if (warned.size() < WARN_MEMORY && warned.add(key)) {
            getContext().getLog().warn(format, args);
        }
    }

    private Behavior<CoordinatorCommand> onNodes(Internal.NodesChanged m) {
        NodeTable old = nodes;
        nodes = m.table;
        network = null; // rebuilt on the next decision
        boolean removed = false;
        for (String id : old.nodes().keySet()) {
            if (nodes.get(id) == null) {
                removed = true;
                break;
            }
        }
        if (removed) { // a registration storm only adds nodes: no need to walk every flow each time
            for (Iterator<FlowState> it = flows.values().iterator(); it.hasNext();) {
                FlowState s = it.next();
                if (nodes.get(s.key.src) == null || nodes.get(s.key.dst) == null) {
                    it.remove();
                }
            }
        }
        for (Iterator<Map.Entry<String, NodeSession>> it = sessions.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, NodeSession> e = it.next();
            NodeEntry now = nodes.get(e.getKey());
            if (now == null) {
                it.remove();
            } else if (now != old.get(e.getKey())) {
                // Registered again (a restarted proxy, or one back from fallback): it holds no decisions of ours.
                NodeSession fresh = new NodeSession();
                fresh.lastReportNanos = e.getValue().lastReportNanos;
                e.setValue(fresh);
            }
        }
        if (!warnedNodes.isEmpty()) {
            warnedNodes.removeAll(nodes.nodes().keySet());
        }
        return this;
    }

    private Behavior<CoordinatorCommand> onCoflows(Internal.CoflowsChanged m) {
        for (String job : coflows.coflows().keySet()) {
            if (m.table.get(job) == null) {
                completedJobs.add(job);
            }
        }
        coflows = m.table;
        for (Iterator<FlowState> it = flows.values().iterator(); it.hasNext();) {
            if (coflows.get(it.next().key.jobId) == null) {
                it.remove();
            }
        }
        warnedJobs.removeAll(coflows.coflows().keySet());
        unknownOnce.removeAll(coflows.coflows().keySet());
        decide(); // arrivals and completions trigger a decision (SCHEDULERS.md §0.3)
        return this;
    }

    // ---- epochs -----------------------------------------------------------------------------------------

    private Behavior<CoordinatorCommand> onEpoch() {
        long now = clock.getAsLong();
        if (lastTickNanos != 0) {
            lastEpochGapNanos = now - lastTickNanos;
            maxEpochGapNanos = Math.max(maxEpochGapNanos, lastEpochGapNanos);
            if (lastEpochGapNanos > 2 * epochNanos) {
                lateEpochs++;
            }
        }
        lastTickNanos = now;
        // nextBoundaryNanos is still the boundary this tick was scheduled for.
        long boundary = nextBoundaryNanos;
        tickLateness.record(now - boundary);
        epoch++;
        decide();
        if (clock.getAsLong() < boundary + epochNanos) {
            keptEpochs++;
        }
        scheduleNextTick();
        if (now - lastSeenFlush >= seenFlushNanos) {
            if (!seenSinceFlush.isEmpty()) {
                guardian.tell(new Internal.NodesSeen(seenSinceFlush));
                seenSinceFlush.clear();
            }
            lastSeenFlush = now;
        }
        return this;
    }

    private void scheduleNextTick() {
        long now = clock.getAsLong();
        nextBoundaryNanos += epochNanos;
        while (nextBoundaryNanos <= now) {
            nextBoundaryNanos += epochNanos;
            skippedEpochs++;
        }
        nextTick = getContext().scheduleOnce(Duration.ofNanos(nextBoundaryNanos - now), getContext().getSelf(),
                Internal.Tick.EPOCH);
    }

    private Network network() {
        if (network == null && !nodes.nodes().isEmpty()) {
            Network.Builder b = Network.builder();
            List<String> order = new ArrayList<String>(nodes.nodes().keySet());
            Map<String, Integer> index = new HashMap<String, Integer>(order.size() * 2);
            for (String id : order) {
                NodeEntry e = nodes.get(id);
                index.put(id, index.size());
                b.host(id, e.upBytesPerSecond(), e.downBytesPerSecond());
            }
            network = b.build();
            hostIndex = index;
        }
        return network;
    }

    /** One scheduling round; every exception is contained (the previous decisions stay with the proxies). */
    private void decide() {
        Network net = network();
        if (net == null || flows.isEmpty()) {
            sendDecisions(Collections.<String, List<FlowDecision>>emptyMap(), false);
            return;
        }
        long t0 = System.nanoTime();
        long c0 = threadCpu.getCurrentThreadCpuTime();
        try {
            // A coflow takes part while at least one of its flows is unfinished; its finished flows stay.
            Set<String> live = new HashSet<String>();
            for (FlowState s : flows.values()) {
                if (!s.best().finished()) {
                    live.add(s.key.jobId);
                }
            }
            long now = clock.getAsLong();
            ClusterState.Builder b = ClusterState.builder(net).now((now - startNanos) / 1e9);
            for (String job : live) {
                CoflowEntry c = coflows.get(job);
                b.coflow(new Coflow(c.id(), c.arrivalSeconds(), c.weight()));
            }
            List<FlowState> included = new ArrayList<FlowState>();
            for (FlowState s : flows.values()) {
                if (live.contains(s.key.jobId)) {
                    b.flow(toFlow(s, coflows.get(s.key.jobId).id(), now));
                    included.add(s);
                }
            }
            if (included.isEmpty()) {
                sendDecisions(Collections.<String, List<FlowDecision>>emptyMap(), false);
                return;
            }
            ClusterState state = b.build();
            Decision d = scheduler.schedule(state.viewFor(scheduler.needs()));
            double[] rates = OrderEnforcer.rates(state, d, scheduler.enforcement());
            boolean orderBased = d.type() == SchedulerType.ORDER_BASED;
            lastRanks.clear();
            for (int rank = 0; rank < d.coflowOrder().size(); rank++) {
                lastRanks.put(d.coflowOrder().get(rank), rank);
            }
            Map<String, List<FlowDecision>> perNode = new HashMap<String, List<FlowDecision>>();
            for (int i = 0; i < state.flowCount(); i++) {
                Flow f = state.flow(i);
                if (f.finished()) {
                    continue;
                }
                FlowState s = included.get(i); // a state keeps its flows in the order they were added
                Integer p = d.priorities().get(f.id());
                Integer rank = lastRanks.get(f.coflow());
                s.lastRate = rates[i];
                s.lastPriority = orderBased && p != null ? p : -1;
                FlowDecision fd = new FlowDecision(s.key.jobId, s.key.src, s.key.dst, rates[i], s.lastPriority,
                        orderBased && rank != null ? rank : -1);
                add(perNode, s.key.src, fd);
                if (!s.key.dst.equals(s.key.src)) {
                    add(perNode, s.key.dst, fd);
                }
            }
            long took = System.nanoTime() - t0;
            long cpu = threadCpu.getCurrentThreadCpuTime() - c0;
            lastDecisionCpuNanos = cpu;
            totalDecisionCpuNanos += cpu;
            decisions++;
            lastDecisionNanos = took;
            maxDecisionNanos = Math.max(maxDecisionNanos, took);
            totalDecisionNanos += took;
            sendDecisions(perNode, orderBased);
        } catch (RuntimeException e) {
            schedulerFailures++;
            getContext().getLog().error("scheduler {} failed in epoch {} with {} flows; previous decisions stay: {}",
                    schedulerName, epoch, flows.size(), e.toString(), e);
        }
    }

    private Flow toFlow(FlowState s, CoflowId coflow, long now) {
        FlowReport r = s.best();
        long size = r.size();
        Flow.Builder fb = Flow.builder(s.id, coflow, hostIndex.get(s.key.src), hostIndex.get(s.key.dst))
                .sent(s.sentAt(now)).size(size).finished(r.finished());
        if (r.measuredRate() >= 0) {
            fb.measuredRate(r.measuredRate());
        }
        if (!Double.isNaN(s.lastRate)) {
            fb.lastDesiredRate(s.lastRate);
        }
        return fb.build();
    }

    private static void add(Map<String, List<FlowDecision>> perNode, String node, FlowDecision d) {
        List<FlowDecision> l = perNode.get(node);
        if (l == null) {
            l = new ArrayList<FlowDecision>();
            perNode.put(node, l);
        }
        l.add(d);
    }

    /**
     * Pushes every node its own decisions when they changed (see {@link NodeSession#differs}), or again after a
     * heartbeat interval without any message; a node that holds decisions and has none now gets an empty update.
     */
    private void sendDecisions(Map<String, List<FlowDecision>> perNode, boolean orderBased) {
        long now = clock.getAsLong();
        for (Map.Entry<String, List<FlowDecision>> e : perNode.entrySet()) {
            NodeEntry n = nodes.get(e.getKey());
            if (n != null) {
                NodeSession s = session(e.getKey());
                if (s.differs(e.getValue(), orderBased) || !s.toldWithin(now, HEARTBEAT_NANOS)) {
                    tell(n, s, e.getValue(), orderBased, now);
                }
            }
        }
        for (Map.Entry<String, NodeSession> e : sessions.entrySet()) {
            NodeSession s = e.getValue();
            NodeEntry n;
            if (!s.held.isEmpty() && !perNode.containsKey(e.getKey()) && (n = nodes.get(e.getKey())) != null) {
                tell(n, s, Collections.<FlowDecision>emptyList(), orderBased, now);
            }
        }
    }

    private void tell(NodeEntry n, NodeSession s, List<FlowDecision> decisions, boolean orderBased, long now) {
        n.client().tell(new DecisionUpdate(epoch, schedulerName, orderBased, decisions));
        decisionMessagesSent++;
        s.held = decisions;
        s.heldOrderBased = orderBased;
        s.lastToldNanos = now;
    }

    // ---- status -----------------------------------------------------------------------------------------

    private Behavior<CoordinatorCommand> onStatus(Internal.GetStatus m) {
        long now = clock.getAsLong();
        List<CoordinatorStatus.NodeStatus> ns = new ArrayList<CoordinatorStatus.NodeStatus>();
        for (NodeEntry e : nodes.nodes().values()) {
            NodeSession session = sessions.get(e.nodeId());
            long last = session == null ? -1 : session.lastReportNanos;
            ns.add(new CoordinatorStatus.NodeStatus(e.nodeId(), e.info().shuffleEndpoint(), e.info().proxyEndpoint(),
                    e.upBytesPerSecond(), e.downBytesPerSecond(), last < 0 ? -1 : (now - last) / 1_000_000L));
        }
        Map<String, long[]> perJob = new HashMap<String, long[]>();      // flows, sent, pending
        Map<String, Double> rateOfJob = new HashMap<String, Double>();
        List<CoordinatorStatus.FlowStatus> fs = new ArrayList<CoordinatorStatus.FlowStatus>();
        for (FlowState s : flows.values()) {
            FlowReport r = s.best();
            long[] agg = perJob.get(s.key.jobId);
            if (agg == null) {
                agg = new long[3];
                perJob.put(s.key.jobId, agg);
            }
            agg[0]++;
            agg[1] += r.bytesSent();
            agg[2] += r.bytesPending();
            double rate = r.finished() || Double.isNaN(s.lastRate) ? 0.0 : s.lastRate;
            Double sum = rateOfJob.get(s.key.jobId);
            rateOfJob.put(s.key.jobId, (sum == null ? 0.0 : sum) + rate);
            fs.add(new CoordinatorStatus.FlowStatus(s.key.jobId, s.key.src, s.key.dst, r.bytesSent(),
                    r.bytesPending(), r.totalBytes(), r.measuredRate(), r.finished(), rate, s.lastPriority));
        }
        List<CoordinatorStatus.CoflowStatus> cs = new ArrayList<CoordinatorStatus.CoflowStatus>();
        for (CoflowEntry c : coflows.coflows().values()) {
            long[] agg = perJob.get(c.jobId());
            Integer rank = lastRanks.get(c.id());
            Double rate = rateOfJob.get(c.jobId());
            cs.add(new CoordinatorStatus.CoflowStatus(c.jobId(), c.id().value(), c.weight(), c.weightSource(),
                    c.arrivalSeconds(), rank == null ? -1 : rank, agg == null ? 0 : (int) agg[0],
                    agg == null ? 0 : agg[1], agg == null ? 0 : agg[2], rate == null ? 0.0 : rate));
        }
        CoordinatorStatus.EpochStats stats = new CoordinatorStatus.EpochStats(epoch, decisions, lastDecisionNanos,
                maxDecisionNanos, totalDecisionNanos, lastDecisionCpuNanos, totalDecisionCpuNanos, lastEpochGapNanos, maxEpochGapNanos, lateEpochs,
                skippedEpochs, reportsReceived, reportsRejected, rowsRejected, decisionMessagesSent, schedulerFailures,
                keptEpochs, tickLateness.snapshot(), reportAcksSent);
        m.replyTo.tell(new CoordinatorStatus(coordinatorId, schedulerName, scheduler.type().name(), epochMillis,
                (now - startNanos) / 1_000_000L, stats, ns, cs, fs));
        return this;
    }
}
