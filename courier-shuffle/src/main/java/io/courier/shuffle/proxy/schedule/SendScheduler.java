package io.courier.shuffle.proxy.schedule;

import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.planning.Merge;
import io.courier.scheduler.planning.NodePair;
import io.courier.scheduler.planning.PlannedFlow;
import io.courier.scheduler.planning.PlanningMode;
import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.scheduler.planning.UnifiedFlow;
import io.courier.shuffle.proxy.protocol.Wire;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The sending node's block scheduler (DESIGN.md "Flow planning in the proxy", SCHEDULERS.md §11). It turns
 * the current decision for the flows this node sends into a {@link SendPlan}: the flows with pending bytes
 * are merged per node pair ({@link Merge}) and at most {@code maxNum} unified flows are started
 * ({@link SelectAndSplit}); a started pair is paced at its unified rate (rate mode) and its streams share
 * that rate in proportion to their flows' rates; in order mode streams go by strict priority of their
 * flow's rank, round-robin inside a rank; without a decision every job of a pair gets an equal share and
 * SelectAndSplit picks the largest pairs first. Pairs that SelectAndSplit does not start wait.
 *
 * <p>Thread-safe: connections report stream starts and ends from their event loops; the plan is rebuilt
 * on every such event and on every new decision, and listeners (the connections) are told to re-read it.
 */
public final class SendScheduler {
    private final String self;
    private final SelectAndSplit selector;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, Long> pending = new HashMap<>();
    private final Map<String, Integer> streams = new HashMap<>();
    private final Map<String, Integer> connections = new HashMap<>();
    private final Map<String, FlowId> syntheticIds = new HashMap<>();
    private long nextSyntheticId;
    private Decision decision;
    private List<FlowBinding> bindings = new ArrayList<>();
    private volatile SendPlan plan = SendPlan.EMPTY;
    private final FlowLedger ledger = new FlowLedger();

    /** The default burst of a paced connection: four blocks. */
    public static final double DEFAULT_PACING_BURST_BYTES = 4.0 * Wire.MAX_DATA;

    /** Tokens a paced connection may save up while idle (see {@link TokenBucket}); 4 blocks unless configured. */
    private final double pacingBurstBytes;

    public SendScheduler(String self, int maxNum, double minSize) {
        this(self, maxNum, minSize, DEFAULT_PACING_BURST_BYTES);
    }

    public SendScheduler(String self, int maxNum, double minSize, double pacingBurstBytes) {
        this.self = self;
        this.selector = new SelectAndSplit(maxNum, minSize);
        this.pacingBurstBytes = pacingBurstBytes;
    }

    /** How many bytes a paced connection may send at once after being idle (any thread; immutable). */
    public double pacingBurstBytes() {
        return pacingBurstBytes;
    }

    public SendPlan plan() {
        return plan;
    }

    /** Cumulative per (job, peer) accounting of what this node serves (reports, decentralized priorities). */
    public FlowLedger ledger() {
        return ledger;
    }

    public void addListener(Runnable onPlanChange) {
        listeners.add(onPlanChange);
    }

    public void removeListener(Runnable onPlanChange) {
        listeners.remove(onPlanChange);
    }

    /** A fetching peer opened (+1) or closed (-1) a connection to this node; each gets a share of the pair's rate. */
    public void connectionsChanged(String peer, int delta) {
        synchronized (this) {
            int n = connections.getOrDefault(peer, 0) + delta;
            if (n <= 0) {
                connections.remove(peer);
            } else {
                connections.put(peer, n);
            }
        }
        notifyListeners();
    }

    /** Connections currently open from {@code peer} (at least 1, for pacing). */
    public synchronized int connectionsFrom(String peer) {
        return Math.max(1, connections.getOrDefault(peer, 0));
    }

    /** Installs a new decision for the flows this node sends; {@code decision == null} means no scheduler. */
    public void apply(Decision newDecision, Collection<FlowBinding> flows) {
        synchronized (this) {
            this.decision = newDecision;
            this.bindings = new ArrayList<>(flows);
            rebuild();
        }
        notifyListeners();
    }

    /** A stream of {@code job} to {@code peer} with {@code bytes} to send has started. */
    public void streamStarted(String job, String peer, long bytes) {
        synchronized (this) {
            String k = SendPlan.key(job, peer);
            pending.put(k, pending.getOrDefault(k, 0L) + bytes);
            streams.put(k, streams.getOrDefault(k, 0) + 1);
            rebuild();
        }
        ledger.started(job, peer, bytes);
        notifyListeners();
    }

    /** A stream ended (sent, cancelled or failed) with {@code unsentBytes} left. */
    public void streamEnded(String job, String peer, long unsentBytes) {
        synchronized (this) {
            String k = SendPlan.key(job, peer);
            Integer n = streams.get(k);
            if (n == null) {
                return;
            }
            ledger.ended(job, peer, unsentBytes);
            if (n <= 1) {
                streams.remove(k);
                pending.remove(k);
                syntheticIds.remove(k);
            } else {
                streams.put(k, n - 1);
                pending.put(k, Math.max(0, pending.get(k) - unsentBytes));
            }
            rebuild();
        }
        notifyListeners();
    }

    /**
     * The key of the flow (job, peer) for {@link #sent(String, long)}. A connection reports what its streams sent
     * once per send pass: computing the key once per stream (and so hashing it once) instead of per report
     * removed a string concatenation and two string hashes per pass (4 % of the proxies' Java time in the
     * throughput bench's profile). Any thread.
     */
    public static String flowKey(String job, String peer) {
        return SendPlan.key(job, peer);
    }

    /**
     * Bytes the stream of flow {@code flowKey} ({@link #flowKey}) has sent, so pending sizes stay current at the
     * next rebuild (no rebuild now).
     */
    public synchronized void sent(String flowKey, long bytes) {
        Long v = pending.get(flowKey);
        if (v != null) {
            pending.put(flowKey, Math.max(0, v - bytes));
        }
        ledger.sent(flowKey, bytes);
    }

    private void notifyListeners() {
        for (Runnable r : listeners) {
            r.run();
        }
    }

    /** Holds the monitor. */
    private void rebuild() {
        PlanningMode mode = decision == null ? PlanningMode.NONE : PlanningMode.of(decision.type());
        List<PlannedFlow> scheduled = new ArrayList<>();
        Map<FlowId, String> jobOf = new HashMap<>();
        if (decision == null) {
            for (Map.Entry<String, Long> e : pending.entrySet()) {
                String[] jp = e.getKey().split("\u0000", 2);
                FlowId id = syntheticIds.computeIfAbsent(e.getKey(), k -> FlowId.of(nextSyntheticId++));
                jobOf.put(id, jp[0]);
                scheduled.add(PlannedFlow.unscheduled(id, new NodePair(self, jp[1]), e.getValue()));
            }
        } else {
            for (FlowBinding b : bindings) {
                Long size = pending.get(SendPlan.key(b.job(), b.peer()));
                if (size == null) {
                    continue;
                }
                NodePair pair = new NodePair(self, b.peer());
                if (decision.type() == SchedulerType.RATE_BASED) {
                    scheduled.add(PlannedFlow.withRate(b.id(), pair, size, decision.rateOf(b.id())));
                } else {
                    Integer rank = decision.priorities().get(b.id());
                    if (rank == null) {
                        continue;
                    }
                    scheduled.add(PlannedFlow.withRank(b.id(), pair, size, rank));
                }
                jobOf.put(b.id(), b.job());
            }
        }
        List<UnifiedFlow> started = selector.apply(Merge.merge(scheduled, mode));
        Map<String, PeerPlan> peers = new LinkedHashMap<>();
        Map<String, Integer> flowsPerPeer = new HashMap<>();
        Map<String, Double> ratePerPeer = new HashMap<>();
        for (UnifiedFlow u : started) {
            String peer = u.pair().dst();
            flowsPerPeer.merge(peer, 1, Integer::sum);
            ratePerPeer.merge(peer, u.rate(), Double::sum);
        }
        Map<String, StreamClass> classes = new HashMap<>();
        for (PlannedFlow f : scheduled) {
            String peer = f.pair().dst();
            String job = jobOf.get(f.id());
            boolean run = flowsPerPeer.containsKey(peer);
            peers.put(peer, new PeerPlan(run, mode == PlanningMode.RATE ? ratePerPeer.getOrDefault(peer, 0.0)
                    : Double.POSITIVE_INFINITY, run ? flowsPerPeer.get(peer) : 0));
            switch (mode) {
                case RATE:
                    classes.put(SendPlan.key(job, peer), new StreamClass(0, f.rate()));
                    break;
                case ORDER:
                    classes.put(SendPlan.key(job, peer), new StreamClass(f.rank(), 1.0));
                    break;
                default:
                    classes.put(SendPlan.key(job, peer), new StreamClass(0, 1.0));
            }
        }
        plan = new SendPlan(mode, peers, classes);
    }
}
