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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * (under this object's monitor) on every such event and on every new decision, and then, outside the monitor,
 * the listeners of the peers whose part of the plan changed ({@link SendPlan#peersChangedSince}) are told to
 * re-read it, on the thread of the event, in the order they registered. A listener of a peer whose plan and
 * classes are unchanged would re-read exactly what it has, so it is not called.
 */
public final class SendScheduler {
    private final String self;
    private final SelectAndSplit selector;
    /** In registration order (each connection registers once, for its peer). */
    private final List<Registration> listeners = new CopyOnWriteArrayList<>();
    /**
     * The flows with open streams, by {@link SendPlan#key}: one entry per flow, put at its first stream and removed
     * with its last. Without a decision rebuild hands the flows to Merge and SelectAndSplit in this map's order
     * (and numbers them in it), so the map's kind and its puts and removes are part of the plan.
     */
    private final Map<String, PendingFlow> pending = new HashMap<>();
    private final Map<String, Integer> connections = new HashMap<>();
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

    /**
     * Calls {@code onPlanChange} whenever the plan of {@code peer} (its {@link PeerPlan}, the classes of its
     * flows, or its connection count) may have changed; on the thread that changed it. Any thread.
     */
    public void addListener(String peer, Runnable onPlanChange) {
        listeners.add(new Registration(peer, onPlanChange));
    }

    /** Removes every registration of {@code onPlanChange}. Any thread. */
    public void removeListener(Runnable onPlanChange) {
        listeners.removeIf(r -> r.onPlanChange == onPlanChange);
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
        // The plan is the same; only the share of the pair's rate per connection of this peer moved.
        notifyListeners(Collections.singleton(peer));
    }

    /** Connections currently open from {@code peer} (at least 1, for pacing). */
    public synchronized int connectionsFrom(String peer) {
        return Math.max(1, connections.getOrDefault(peer, 0));
    }

    /** Installs a new decision for the flows this node sends; {@code decision == null} means no scheduler. */
    public void apply(Decision newDecision, Collection<FlowBinding> flows) {
        Set<String> changed;
        synchronized (this) {
            this.decision = newDecision;
            this.bindings = new ArrayList<>(flows);
            changed = rebuild();
        }
        notifyListeners(changed);
    }

    /** A stream of {@code job} to {@code peer} with {@code bytes} to send has started. */
    public void streamStarted(String job, String peer, long bytes) {
        Set<String> changed;
        String k = SendPlan.key(job, peer);
        synchronized (this) {
            PendingFlow f = pending.get(k);
            if (f == null) {
                f = new PendingFlow(job, peer, k);
                pending.put(k, f);
            }
            f.bytes += bytes;
            f.streams++;
            changed = rebuild();
        }
        ledger.started(job, peer, k, bytes);
        notifyListeners(changed);
    }

    /** A stream ended (sent, cancelled or failed) with {@code unsentBytes} left. */
    public void streamEnded(String job, String peer, long unsentBytes) {
        Set<String> changed;
        synchronized (this) {
            String k = SendPlan.key(job, peer);
            PendingFlow f = pending.get(k);
            if (f == null) {
                return;
            }
            ledger.ended(k, unsentBytes);
            if (f.streams <= 1) {
                pending.remove(k);
            } else {
                f.streams--;
                f.bytes = Math.max(0, f.bytes - unsentBytes);
            }
            changed = rebuild();
        }
        notifyListeners(changed);
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
        PendingFlow f = pending.get(flowKey);
        if (f != null) {
            f.bytes = Math.max(0, f.bytes - bytes);
        }
        ledger.sent(flowKey, bytes);
    }

    /** Not holding the monitor: a listener may read the plan, or (same thread) start and end streams. */
    private void notifyListeners(Set<String> peers) {
        if (peers.isEmpty()) {
            return;
        }
        for (Registration r : listeners) {
            if (peers.contains(r.peer)) {
                r.onPlanChange.run();
            }
        }
    }

    /** Holds the monitor. Installs the new plan and returns the peers whose part of it changed. */
    private Set<String> rebuild() {
        PlanningMode mode = decision == null ? PlanningMode.NONE : PlanningMode.of(decision.type());
        List<PlannedFlow> scheduled = new ArrayList<>(pending.size());
        Map<FlowId, PendingFlow> flowOf = new HashMap<>();
        if (decision == null) {
            for (PendingFlow f : pending.values()) {
                if (f.syntheticId == null) {
                    f.syntheticId = FlowId.of(nextSyntheticId++);
                }
                flowOf.put(f.syntheticId, f);
                scheduled.add(PlannedFlow.unscheduled(f.syntheticId, new NodePair(self, f.peer), f.bytes));
            }
        } else {
            for (FlowBinding b : bindings) {
                PendingFlow f = pending.get(b.flowKey());
                if (f == null) {
                    continue;
                }
                NodePair pair = new NodePair(self, b.peer());
                if (decision.type() == SchedulerType.RATE_BASED) {
                    scheduled.add(PlannedFlow.withRate(b.id(), pair, f.bytes, decision.rateOf(b.id())));
                } else {
                    Integer rank = decision.priorities().get(b.id());
                    if (rank == null) {
                        continue;
                    }
                    scheduled.add(PlannedFlow.withRank(b.id(), pair, f.bytes, rank));
                }
                flowOf.put(b.id(), f);
            }
        }
        List<UnifiedFlow> started = selector.apply(Merge.merge(scheduled, mode));
        Map<String, PeerPlan> peers = new HashMap<>();
        Map<String, Integer> flowsPerPeer = new HashMap<>();
        Map<String, Double> ratePerPeer = new HashMap<>();
        for (UnifiedFlow u : started) {
            String peer = u.pair().dst();
            flowsPerPeer.merge(peer, 1, Integer::sum);
            ratePerPeer.merge(peer, u.rate(), Double::sum);
        }
        Map<String, StreamClass> classes = new HashMap<>();
        Map<String, Map<String, StreamClass>> classesByPeer = new HashMap<>();
        for (PlannedFlow f : scheduled) {
            String peer = f.pair().dst();
            String key = flowOf.get(f.id()).key;
            Map<String, StreamClass> ofPeer = classesByPeer.get(peer);
            if (ofPeer == null) {
                // The peer's plan depends on the peer only: made once per peer.
                boolean run = flowsPerPeer.containsKey(peer);
                peers.put(peer, new PeerPlan(run, mode == PlanningMode.RATE ? ratePerPeer.getOrDefault(peer, 0.0)
                        : Double.POSITIVE_INFINITY, run ? flowsPerPeer.get(peer) : 0));
                ofPeer = new HashMap<>();
                classesByPeer.put(peer, ofPeer);
            }
            StreamClass c;
            switch (mode) {
                case RATE:
                    c = new StreamClass(0, f.rate());
                    break;
                case ORDER:
                    c = new StreamClass(f.rank(), 1.0);
                    break;
                default:
                    c = DEFAULT_CLASS;
            }
            classes.put(key, c);
            ofPeer.put(key, c);
        }
        SendPlan before = plan;
        SendPlan after = new SendPlan(mode, peers, classes, classesByPeer);
        plan = after;
        return after.peersChangedSince(before);
    }

    /** Every flow's class without a decision: one rank, equal weights. */
    private static final StreamClass DEFAULT_CLASS = new StreamClass(0, 1.0);

    /** A (job, peer) with open streams here. Guarded by the scheduler's monitor. */
    private static final class PendingFlow {
        final String job;
        final String peer;
        /** {@link SendPlan#key} of job and peer. */
        final String key;
        /** Bytes its open streams have yet to send (as last reported). */
        long bytes;
        int streams;
        /** Its id while no decision names flows; made at the first rebuild without a decision. */
        FlowId syntheticId;

        PendingFlow(String job, String peer, String key) {
            this.job = job;
            this.peer = peer;
            this.key = key;
        }
    }

    /** A connection's interest in the plan of its peer. Immutable. */
    private static final class Registration {
        final String peer;
        final Runnable onPlanChange;

        Registration(String peer, Runnable onPlanChange) {
            this.peer = peer;
            this.onPlanChange = onPlanChange;
        }
    }
}
