package io.courier.scheduler.iaoa;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * IAOA, the information-agnostic online weighted coflow scheduler of seed 004 (SCHEDULERS.md §9):
 * Alg. 3 orders coflows by {@code α = (largest port load of bytes sent) / weight}, ascending
 * ({@link AlphaOrder}); Alg. 4 turns the order into rates ({@link GreedyCoflowAllocation}).
 *
 * <p>The order is cached and recomputed only when the set of active coflows differs from the one it
 * was computed for (a coflow arrived or ended) or when {@code period} {@code T} has elapsed since it
 * was computed; every other call (a flow completion, say) reuses it and only re-runs Alg. 4
 * ([resolved], §15 item 8: footnote 2 and the {@code T} trigger both apply). Never reads flow sizes.
 *
 * <p>Stateful (the cached order and its time): one instance per driver.
 */
public final class IaoaScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "iaoa";

    private final double period;
    private List<CoflowId> order;           // null until the first decision
    private Set<CoflowId> orderedSet = Collections.emptySet();
    private double orderTime = Double.NaN;

    /** @param period re-ordering period {@code T} in seconds, {@code > 0}; +∞ re-orders only on arrivals and departures */
    public IaoaScheduler(double period) {
        if (Double.isNaN(period) || period <= 0) {
            throw new IllegalArgumentException("scheduler '" + NAME + "': period T must be > 0 seconds, got " + period);
        }
        this.period = period;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "IAOA: non-clairvoyant weighted ordering by bytes sent / weight, greedy per-coflow rates",
                Collections.singletonList(ParameterSpec.positive("period", 0.05,
                "[paper] T in seconds: the order is recomputed when T has elapsed since the last ordering"
                        + " (seed 004 §6: 50 ms), and at every coflow arrival or departure")),
                p -> new IaoaScheduler(p.getDouble("period")));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Keeps nothing from a state past the call (only ids and numbers): drivers may recycle states. */
    @Override
    public boolean retainsStates() {
        return false;
    }

    @Override
    public SchedulerType type() {
        return SchedulerType.RATE_BASED;
    }

    @Override
    public Set<Info> needs() {
        return EnumSet.of(Info.WEIGHTS);
    }

    public double period() {
        return period;
    }

    @Override
    public Decision schedule(ClusterState state) {
        Set<CoflowId> active = new HashSet<>(state.coflowCount() * 2);
        for (int c = 0; c < state.coflowCount(); c++) {
            active.add(state.coflow(c).id());
        }
        if (mustReorder(state.now(), active)) {
            int[] sorted = AlphaOrder.order(state, AlphaOrder.sentAlphas(state));
            List<CoflowId> ids = new ArrayList<>(sorted.length);
            for (int c : sorted) {
                ids.add(state.coflow(c).id());
            }
            order = Collections.unmodifiableList(ids);
            orderedSet = active;
            orderTime = state.now();
        }
        int[] indices = new int[order.size()];
        for (int k = 0; k < indices.length; k++) {
            indices[k] = state.indexOf(order.get(k));
        }
        return Decision.ofOwnedRates(state, GreedyCoflowAllocation.allocate(state, indices));
    }

    private boolean mustReorder(double now, Set<CoflowId> active) {
        if (order == null || !active.equals(orderedSet) || now < orderTime) {
            return true; // first call, arrival/departure, or a driver that restarted its clock
        }
        if (Double.isInfinite(period)) {
            return false;
        }
        double due = orderTime + period;
        // A driver wakes us at 'due' computed the same way; allow for its rounding, not for real early calls.
        return now >= due - (1e-9 * period + 1e-12 * Math.abs(due));
    }

    /** The cached order, highest priority first (empty before the first decision). */
    public List<CoflowId> currentOrder() {
        return order == null ? Collections.<CoflowId>emptyList() : order;
    }

    /** The time the cached order was computed at; NaN before the first decision. */
    public double lastOrderTime() {
        return orderTime;
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        if (order == null || state.coflowCount() == 0) {
            return Double.POSITIVE_INFINITY; // nothing to re-order; the next arrival calls us anyway
        }
        return orderTime + period;
    }
}
