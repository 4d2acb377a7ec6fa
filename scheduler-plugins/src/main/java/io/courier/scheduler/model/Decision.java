package io.courier.scheduler.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scheduler's decision (SCHEDULERS.md §0.3). Rate-based: a rate for every active flow (absent = 0,
 * paused). Order-based: a coflow order (rank 0 = highest priority) and a priority class per flow
 * (0 = highest). Immutable; rates are validated (finite, {@code >= 0}) when the decision is built.
 */
public final class Decision {
    private final SchedulerType type;
    private final List<CoflowId> coflowOrder;
    // Either a map, or (rank priorities built from a state) an array indexed like origin's flows, -1 = none;
    // the map is then built on first use, like the rates. The array too is built on first use (from origin, the
    // order and rankLevels): the E1 enforcer never reads it, and at trace scale it spans 100 000+ flows per
    // decision. Built the same by any thread, so a racy double build is harmless.
    private volatile Map<FlowId, Integer> priorities;
    private volatile int[] priorityArray;
    private final int rankLevels;
    // A rate-based decision holds either a map, or (built from a state) an array indexed like that state's
    // flows: at tens of thousands of flows per decision, boxing every rate into a map is what would cost.
    private final ClusterState origin;
    private final double[] rateArray;
    // Built on first use from rateArray; immutable, so a racy double build is harmless.
    private volatile Map<FlowId, Double> rates;
    // The rates an enforcer derived from this order-based decision on one snapshot ({@link #enforced}): a scheduler
    // that enforces its own decision (to prove how long it stands) and the driver that then enforces it on the same
    // snapshot do the work once. One holder, published through a volatile field.
    private volatile Enforced enforced;

    /** Rates an enforcer derived, with what they were derived from. */
    private static final class Enforced {
        final Object enforcement;
        final ClusterState state;
        final double[] rates;

        Enforced(Object enforcement, ClusterState state, double[] rates) {
            this.enforcement = enforcement;
            this.state = state;
            this.rates = rates;
        }
    }

    private Decision(SchedulerType type, Map<FlowId, Double> rates, List<CoflowId> coflowOrder,
            Map<FlowId, Integer> priorities) {
        this.type = type;
        this.rates = rates;
        this.coflowOrder = coflowOrder;
        this.priorities = priorities;
        this.origin = null;
        this.rateArray = null;
        this.priorityArray = null;
        this.rankLevels = 0;
    }

    /** An order-based decision over {@code origin}: rank priorities built on first use, or the given array. */
    private Decision(ClusterState origin, List<CoflowId> coflowOrder, int rankLevels, int[] priorityArray) {
        this.type = SchedulerType.ORDER_BASED;
        this.rates = Collections.emptyMap();
        this.coflowOrder = coflowOrder;
        this.priorities = null;
        this.origin = origin;
        this.rateArray = null;
        this.priorityArray = priorityArray;
        this.rankLevels = rankLevels;
    }

    private Decision(ClusterState origin, double[] rateArray) {
        this.type = SchedulerType.RATE_BASED;
        this.rates = null;
        this.coflowOrder = Collections.emptyList();
        this.priorities = Collections.emptyMap();
        this.origin = origin;
        this.rateArray = rateArray;
        this.priorityArray = null;
        this.rankLevels = 0;
    }

    /** A rate-based decision from a rate array indexed like {@code state.flows()}; finished flows are left out. */
    public static Decision ofRates(ClusterState state, double[] rate) {
        if (rate.length != state.flowCount()) {
            throw new IllegalArgumentException("rate array has " + rate.length + " entries for "
                    + state.flowCount() + " flows");
        }
        double[] copy = new double[rate.length];
        for (int i = 0; i < rate.length; i++) {
            if (!state.finished(i)) {
                double r = rate[i];
                copy[i] = r >= 0 && r < Double.POSITIVE_INFINITY ? r : checkRate(state.flow(i).id(), r);
            }
        }
        return new Decision(state, copy);
    }

    /**
     * {@link #ofRates(ClusterState, double[])} without the copy: the decision adopts {@code rate} (the
     * entries of finished flows are set to 0 in place), so the caller must neither keep nor modify it. For
     * schedulers that build a fresh array per call: at 100 000+ flows a decision, the copy is one more
     * large array per decision for the collector.
     */
    public static Decision ofOwnedRates(ClusterState state, double[] rate) {
        if (rate.length != state.flowCount()) {
            throw new IllegalArgumentException("rate array has " + rate.length + " entries for "
                    + state.flowCount() + " flows");
        }
        for (int i = 0; i < rate.length; i++) {
            if (state.finished(i)) {
                rate[i] = 0.0;
            } else {
                double r = rate[i];
                if (!(r >= 0 && r < Double.POSITIVE_INFINITY)) {
                    checkRate(state.flow(i).id(), r);
                }
            }
        }
        return new Decision(state, rate);
    }

    /** A rate-based decision from a map of rates. */
    public static Decision ofRates(Map<FlowId, Double> rates) {
        Map<FlowId, Double> m = new HashMap<>(rates.size() * 2);
        for (Map.Entry<FlowId, Double> e : rates.entrySet()) {
            if (e.getValue() == null) {
                throw new IllegalArgumentException("rate of " + e.getKey() + " must be a finite number >= 0, got null");
            }
            m.put(e.getKey(), checkRate(e.getKey(), e.getValue()));
        }
        return new Decision(SchedulerType.RATE_BASED, Collections.unmodifiableMap(m), Collections.emptyList(),
                Collections.emptyMap());
    }

    /**
     * An order-based decision. Every coflow appears at most once in {@code order}; every priority is
     * {@code >= 0}.
     */
    public static Decision ofOrder(List<CoflowId> order, Map<FlowId, Integer> priorities) {
        Set<CoflowId> seen = new HashSet<>();
        for (CoflowId c : order) {
            if (!seen.add(c)) {
                throw new IllegalArgumentException("coflow " + c + " appears twice in the order");
            }
        }
        for (Map.Entry<FlowId, Integer> e : priorities.entrySet()) {
            if (e.getValue() == null || e.getValue() < 0) {
                throw new IllegalArgumentException("priority of " + e.getKey() + " must be >= 0, got "
                        + e.getValue());
            }
        }
        return new Decision(SchedulerType.ORDER_BASED, Collections.emptyMap(),
                Collections.unmodifiableList(new ArrayList<>(order)),
                Collections.unmodifiableMap(new HashMap<>(priorities)));
    }

    /**
     * An order-based decision whose flow priorities are the ranks of their coflows in {@code order},
     * capped at {@code levels - 1} (Integer.MAX_VALUE = unlimited levels).
     */
    public static Decision ofOrderWithRankPriorities(ClusterState state, List<CoflowId> order, int levels) {
        if (levels < 1) {
            throw new IllegalArgumentException("priority levels must be >= 1, got " + levels);
        }
        Set<CoflowId> seen = new HashSet<>();
        for (CoflowId id : order) {
            if (!seen.add(id)) {
                throw new IllegalArgumentException("coflow " + id + " appears twice in the order");
            }
            if (state.indexOf(id) < 0) {
                throw new IllegalArgumentException("order names " + id + ", which is not active");
            }
        }
        return new Decision(state, Collections.unmodifiableList(new ArrayList<>(order)), levels, null);
    }

    /**
     * An order-based decision with the priority class of every flow of {@code state} in {@code priority}, indexed
     * like its flows ({@code -1} = no class); the decision takes the array over (the caller must not change it).
     * Drivers that enforce on {@code state} read the classes from the array; {@link #priorities()} is built on
     * first use. For a scheduler that classes every unfinished flow at each decision (Stream), a map keyed by flow
     * id is what would cost.
     */
    public static Decision ofOrderWithOwnedPriorities(ClusterState state, List<CoflowId> order, int[] priority) {
        if (priority.length != state.flowCount()) {
            throw new IllegalArgumentException("priorities for " + priority.length + " flows, the state has "
                    + state.flowCount());
        }
        Set<CoflowId> seen = new HashSet<>();
        for (CoflowId id : order) {
            if (!seen.add(id)) {
                throw new IllegalArgumentException("coflow " + id + " appears twice in the order");
            }
        }
        for (int i = 0; i < priority.length; i++) {
            if (priority[i] < -1) {
                throw new IllegalArgumentException("priority of flow-" + state.flowIdValue(i) + " must be >= 0 (or -1: "
                        + "none), got " + priority[i]);
            }
        }
        return new Decision(state, Collections.unmodifiableList(new ArrayList<>(order)), 0, priority);
    }

    /** The rank priorities of a decision made by {@link #ofOrderWithRankPriorities}, built on first use. */
    private int[] priorityArray() {
        int[] prio = priorityArray;
        if (prio == null) {
            prio = new int[origin.flowCount()];
            Arrays.fill(prio, -1);
            for (int rank = 0; rank < coflowOrder.size(); rank++) {
                for (int f : origin.unfinishedFlowsOf(origin.indexOf(coflowOrder.get(rank)))) {
                    prio[f] = Math.min(rank, rankLevels - 1);
                }
            }
            priorityArray = prio;
        }
        return prio;
    }

    /**
     * The rates an enforcer noted for this decision under {@code enforcement} on {@code state} or a view of it
     * ({@link ClusterState#isSnapshotOf}), or null. Do not modify the array.
     */
    public double[] enforced(Object enforcement, ClusterState state) {
        Enforced e = enforced;
        return e != null && e.enforcement == enforcement && e.state.isSnapshotOf(state) ? e.rates : null;
    }

    /** Notes the rates an enforcer derived from this decision under {@code enforcement} on {@code state} (copied). */
    public void noteEnforced(Object enforcement, ClusterState state, double[] rates, int count) {
        enforced = new Enforced(enforcement, state, Arrays.copyOf(rates, count));
    }

    private static double checkRate(FlowId id, double r) {
        if (!Double.isFinite(r) || r < 0) {
            throw new IllegalArgumentException("rate of " + id + " must be a finite number >= 0, got " + r);
        }
        return r;
    }

    public SchedulerType type() {
        return type;
    }

    /** Rates of a rate-based decision, by flow (unfinished flows only); empty for an order-based one. */
    public Map<FlowId, Double> rates() {
        Map<FlowId, Double> m = rates;
        if (m == null) {
            Map<FlowId, Double> built = new HashMap<>(rateArray.length * 2);
            for (int i = 0; i < rateArray.length; i++) {
                Flow f = origin.flow(i);
                if (!f.finished()) {
                    built.put(f.id(), rateArray[i]);
                }
            }
            m = Collections.unmodifiableMap(built);
            rates = m;
        }
        return m;
    }

    /** The rate of a flow; 0 when the decision does not name it. */
    public double rateOf(FlowId id) {
        if (rateArray != null) {
            int i = origin.indexOf(id);
            return i < 0 ? 0.0 : rateArray[i];
        }
        Double r = rates.get(id);
        return r == null ? 0.0 : r;
    }

    /**
     * The decision's own rate array, indexed like {@code state.flows()}, when it is a rate-based decision made on
     * {@code state} or a view of it ({@link ClusterState#isSnapshotOf}): then every finished flow's entry is 0 and
     * every other entry a finite rate {@code >= 0}, checked when the decision was made. Null otherwise. Read only: a
     * driver that would copy the rates ({@link #ratesIndexedLike}) and scan them all for the positive ones reads them
     * in place instead, and only at the unfinished flows.
     */
    public double[] ratesMadeOn(ClusterState state) {
        return rateArray != null && origin.isSnapshotOf(state) ? rateArray : null;
    }

    /**
     * The rate of flow {@code flowIndex} of {@code state}: {@code rateOf(state.flow(flowIndex).id())}, read
     * straight from the decision's array when it was made on {@code state} or a view of it — without
     * making a flow object per flow, which at trace scale costs more than the decision itself.
     */
    public double rateOf(ClusterState state, int flowIndex) {
        if (rateArray != null && origin.hasSameFlowsAs(state)) {
            return rateArray[flowIndex];
        }
        return rateOf(state.flow(flowIndex).id());
    }

    /**
     * The rates as an array indexed like {@code state.flows()} (0 for finished flows and flows the
     * decision does not name). A fresh array.
     */
    public double[] ratesIndexedLike(ClusterState state) {
        double[] out = new double[state.flowCount()];
        ratesIndexedLike(state, out);
        return out;
    }

    /**
     * {@link #ratesIndexedLike(ClusterState)} into {@code out[0..state.flowCount())} (entries past that
     * are left alone), for a driver that reuses one array across decisions.
     */
    public void ratesIndexedLike(ClusterState state, double[] out) {
        int n = state.flowCount();
        if (out.length < n) {
            throw new IllegalArgumentException("rate array has room for " + out.length + " of " + n + " flows");
        }
        if (rateArray != null && origin.hasSameFlowsAs(state)) {
            for (int i = 0; i < n; i++) {
                out[i] = state.finished(i) ? 0.0 : rateArray[i];
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            out[i] = state.flow(i).finished() ? 0.0 : rateOf(state.flow(i).id());
        }
    }

    /** Coflow order of an order-based decision, rank 0 first; empty for a rate-based one. */
    public List<CoflowId> coflowOrder() {
        return coflowOrder;
    }

    /** Per-flow priority classes of an order-based decision (0 = highest). */
    public Map<FlowId, Integer> priorities() {
        Map<FlowId, Integer> m = priorities;
        if (m == null) {
            int[] prio = priorityArray();
            Map<FlowId, Integer> built = new HashMap<>(prio.length * 2);
            for (int i = 0; i < prio.length; i++) {
                if (prio[i] >= 0) {
                    built.put(origin.flow(i).id(), prio[i]);
                }
            }
            m = Collections.unmodifiableMap(built);
            priorities = m;
        }
        return m;
    }

    /**
     * The priority class of every flow of {@code state}, indexed like its flows; -1 where the decision
     * names no class (finished flows, flows it does not mention). A fresh array.
     */
    public int[] prioritiesIndexedLike(ClusterState state) {
        int[] out = new int[state.flowCount()];
        if (type == SchedulerType.ORDER_BASED && origin != null && origin.hasSameFlowsAs(state)) {
            System.arraycopy(priorityArray(), 0, out, 0, out.length);
            return out;
        }
        Map<FlowId, Integer> m = priorities();
        for (int i = 0; i < out.length; i++) {
            Integer p = m.get(state.flow(i).id());
            out[i] = p == null ? -1 : p;
        }
        return out;
    }

    @Override
    public String toString() {
        return type == SchedulerType.RATE_BASED ? "Decision(rates=" + rates() + ")"
                : "Decision(order=" + coflowOrder + ", priorities=" + priorities + ")";
    }
}
