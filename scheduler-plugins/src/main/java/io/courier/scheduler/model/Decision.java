package io.courier.scheduler.model;

import java.util.ArrayList;
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
    private final Map<FlowId, Double> rates;
    private final List<CoflowId> coflowOrder;
    private final Map<FlowId, Integer> priorities;

    private Decision(SchedulerType type, Map<FlowId, Double> rates, List<CoflowId> coflowOrder,
            Map<FlowId, Integer> priorities) {
        this.type = type;
        this.rates = rates;
        this.coflowOrder = coflowOrder;
        this.priorities = priorities;
    }

    /** A rate-based decision from a rate array indexed like {@code state.flows()}; finished flows are left out. */
    public static Decision ofRates(ClusterState state, double[] rate) {
        if (rate.length != state.flowCount()) {
            throw new IllegalArgumentException("rate array has " + rate.length + " entries for "
                    + state.flowCount() + " flows");
        }
        Map<FlowId, Double> m = new HashMap<>(rate.length * 2);
        for (int i = 0; i < rate.length; i++) {
            Flow f = state.flow(i);
            if (f.finished()) {
                continue;
            }
            m.put(f.id(), checkRate(f.id(), rate[i]));
        }
        return new Decision(SchedulerType.RATE_BASED, Collections.unmodifiableMap(m), Collections.emptyList(),
                Collections.emptyMap());
    }

    /** A rate-based decision from a map of rates. */
    public static Decision ofRates(Map<FlowId, Double> rates) {
        Map<FlowId, Double> m = new HashMap<>(rates.size() * 2);
        for (Map.Entry<FlowId, Double> e : rates.entrySet()) {
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
        Map<FlowId, Integer> prio = new HashMap<>(state.flowCount() * 2);
        for (int rank = 0; rank < order.size(); rank++) {
            int c = state.indexOf(order.get(rank));
            if (c < 0) {
                throw new IllegalArgumentException("order names " + order.get(rank) + ", which is not active");
            }
            for (int f : state.flowsOf(c)) {
                if (!state.flow(f).finished()) {
                    prio.put(state.flow(f).id(), Math.min(rank, levels - 1));
                }
            }
        }
        return ofOrder(order, prio);
    }

    private static double checkRate(FlowId id, Double r) {
        if (r == null || !Double.isFinite(r) || r < 0) {
            throw new IllegalArgumentException("rate of " + id + " must be a finite number >= 0, got " + r);
        }
        return r;
    }

    public SchedulerType type() {
        return type;
    }

    /** Rates of a rate-based decision; empty for an order-based one. */
    public Map<FlowId, Double> rates() {
        return rates;
    }

    /** The rate of a flow; 0 when the decision does not name it. */
    public double rateOf(FlowId id) {
        Double r = rates.get(id);
        return r == null ? 0.0 : r;
    }

    /** Coflow order of an order-based decision, rank 0 first; empty for a rate-based one. */
    public List<CoflowId> coflowOrder() {
        return coflowOrder;
    }

    /** Per-flow priority classes of an order-based decision (0 = highest). */
    public Map<FlowId, Integer> priorities() {
        return priorities;
    }

    @Override
    public String toString() {
        return type == SchedulerType.RATE_BASED ? "Decision(rates=" + rates + ")"
                : "Decision(order=" + coflowOrder + ", priorities=" + priorities + ")";
    }
}
