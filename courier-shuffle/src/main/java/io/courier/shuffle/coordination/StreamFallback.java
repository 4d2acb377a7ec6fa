package io.courier.shuffle.coordination;

import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.stream.ReceiverPriorities;
import io.courier.scheduler.stream.StarvationAging;
import io.courier.scheduler.stream.StreamPriority;
import io.courier.scheduler.stream.SubCoflowObservation;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.FlowLedger;
import io.courier.shuffle.proxy.schedule.FlowTally;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decentralized fallback: Stream's priorities (SCHEDULERS.md §7, seed 002), computed per receiver and
 * enforced by this sender with strict priority classes and fair sharing inside a class (E2).
 *
 * <p>What is implemented: for every peer (receiver) {@code r} this node sends to, one {@link ReceiverPriorities}
 * of the scheduler library keeps Stream's per-sub-coflow state; every epoch each sub-coflow {@code (c, r)} is
 * observed with {@code x} = bytes of {@code c} sent to {@code r}, {@code n} = segments (mapper→reducer flows) of
 * {@code c} requested by {@code r}, {@code n^fin} = those completed; the formula (eq. 5, K = 4, τ = 10 MB,
 * α = β = 1) gives a level, demoted only, never promoted; every stream of {@code (c, r)} is sent at that level.
 *
 * <p>What is not: the receiver's aggregation over all its senders. Stream's receiver sees {@code x_{c,r}} from
 * every sender and carries the level back in ACKs; Courier's wire has no frame for that, so the level is
 * evaluated by the sender on its own share of the sub-coflow (a lower bound of {@code x_{c,r}}: a coflow is
 * demoted later than in the paper, never earlier). Information-Relay ({@code S = 0}), Weighted-Priority
 * ({@code m = 1}), Child-to-Parent and starvation aging are off: they need cross-node messages or DAG ids the
 * proxies do not exchange. Not thread-safe: confined to {@link ProxyCoordination}'s planning thread.
 *
 * <p>Why an epoch may be skipped ({@link #epoch}): with starvation aging off, {@link ReceiverPriorities#update}
 * does not depend on the time, only on the observations and each sub-coflow's level; the formula level {@code φ}
 * of a sub-coflow is a function of its observation and its level, and after an epoch {@code φ_prev >= φ}. So if
 * an epoch changed no level (and met no new sub-coflow), an epoch with the same observations computes the same
 * {@code φ}s, changes nothing and returns the same levels, hence the same plan. The observations are the same when
 * the ledger's {@link FlowLedger#version()} and the {@link FlowIds#forgets()} count are.
 */
final class StreamFallback {
    private final StreamPriority formula;
    private final Map<String, ReceiverPriorities> receivers = new HashMap<>();
    /** Per receiver, the levels its last update returned (to tell whether an update changed any). */
    private final Map<String, Map<CoflowId, Integer>> lastLevels = new HashMap<>();
    private final long startNanos;
    /** Whether the last {@link #update} changed no level, met no new sub-coflow and dropped no state. */
    private boolean settled;
    /** What the last {@link #epoch} computed from; {@code lastPlan == null}: nothing reusable. */
    private SenderPlan lastPlan;
    private long lastVersion;
    private long lastForgets;
    /** Epochs that read the ledger and ran the formula (tests). */
    private long computedEpochs;

    StreamFallback(StreamPriority formula, long startNanos) {
        this.formula = formula;
        this.startNanos = startNanos;
    }

    StreamFallback() {
        this(StreamPriority.defaults(), System.nanoTime());
    }

    /**
     * One epoch over {@code ledger}: the plan of the previous epoch when nothing can have changed (see the class
     * comment: same ledger version, no ids forgotten, and the previous update changed no level), else
     * {@link #update} over a fresh snapshot. Either way the plan {@code update} would return now.
     */
    SenderPlan epoch(FlowLedger ledger, FlowIds ids, long nowNanos) {
        long version = ledger.version(); // before the snapshot: a change racing with it shows as a newer version
        long forgets = ids.forgets();
        if (lastPlan != null && settled && version == lastVersion && forgets == lastForgets) {
            return lastPlan;
        }
        SenderPlan p = update(ledger.snapshot(), ids, nowNanos);
        computedEpochs++;
        lastPlan = p;
        lastVersion = version;
        lastForgets = forgets;
        return p;
    }

    /**
     * One epoch over the ledger's rows: updates every receiver's state and returns the plan for the pairs that
     * have streams open now ({@link SenderPlan#NONE} when none has).
     */
    SenderPlan update(List<FlowTally> tallies, FlowIds ids, long nowNanos) {
        lastPlan = null; // until this update completes, no plan is known to match the receivers' state
        settled = false;
        boolean changed = false;
        Map<String, List<FlowTally>> byPeer = new LinkedHashMap<>();
        for (FlowTally t : tallies) {
            List<FlowTally> l = byPeer.get(t.peer());
            if (l == null) {
                l = new ArrayList<>();
                byPeer.put(t.peer(), l);
            }
            l.add(t);
        }
        if (receivers.keySet().retainAll(byPeer.keySet())) {
            changed = true;
        }
        lastLevels.keySet().retainAll(byPeer.keySet());
        double now = Math.max(0, nowNanos - startNanos) / 1e9;
        List<FlowBinding> bindings = new ArrayList<>();
        Map<FlowId, Integer> priorities = new HashMap<>();
        Map<String, String> settings = new LinkedHashMap<>();
        final Map<CoflowId, Integer> bestLevel = new HashMap<>();
        final Map<CoflowId, Long> sentOf = new HashMap<>();
        for (Map.Entry<String, List<FlowTally>> e : byPeer.entrySet()) {
            ReceiverPriorities r = receivers.get(e.getKey());
            if (r == null) {
                r = new ReceiverPriorities(e.getKey(), formula, StarvationAging.off());
                receivers.put(e.getKey(), r);
            }
            List<SubCoflowObservation> obs = new ArrayList<>();
            for (FlowTally t : e.getValue()) {
                obs.add(SubCoflowObservation.builder(ids.coflow(t.job())).bytesReceived(t.sent())
                        .flows(Math.max(1, t.streamsStarted()), Math.min(t.streamsEnded(),
                                Math.max(1, t.streamsStarted())))
                        .build());
            }
            Map<CoflowId, Integer> levels = r.update(now, obs);
            if (!levels.equals(lastLevels.put(e.getKey(), levels))) {
                changed = true; // a level moved, or a sub-coflow came or went
            }
            for (FlowTally t : e.getValue()) {
                if (t.idle()) {
                    continue; // kept in the receiver's state (demotion memory), nothing to send now
                }
                CoflowId c = ids.coflow(t.job());
                int level = levels.get(c);
                FlowId id = ids.flow(t.job(), t.peer());
                bindings.add(new FlowBinding(id, t.job(), t.peer()));
                priorities.put(id, level);
                settings.put(t.job() + "->" + t.peer(), "p" + level);
                Integer best = bestLevel.get(c);
                bestLevel.put(c, best == null ? level : Math.min(best, level));
                Long s = sentOf.get(c);
                sentOf.put(c, (s == null ? 0L : s) + t.sent());
            }
        }
        settled = !changed;
        if (bindings.isEmpty()) {
            return SenderPlan.NONE;
        }
        // The coflow order is informational for the sender (it enforces the per-flow classes): best class
        // first, then least bytes sent here (least attained service), then id.
        List<CoflowId> order = new ArrayList<>(bestLevel.keySet());
        Collections.sort(order, Comparator.<CoflowId, Integer>comparing(bestLevel::get)
                .thenComparing(sentOf::get).thenComparing(c -> c));
        return SenderPlan.of(Decision.ofOrder(order, priorities), bindings, settings);
    }

    /** How many {@link #epoch}s ran the formula rather than reuse the previous plan (tests). */
    long computedEpochs() {
        return computedEpochs;
    }

    /** The number of receivers with Stream state (tests). */
    int receivers() {
        return receivers.size();
    }
}
