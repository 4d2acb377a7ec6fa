package io.courier.scheduler.iaoa;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.PortSums;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.QuietInterval;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.ArrayList;
import java.util.Arrays;
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
    /** The last decision's proof for {@link #skipWakeup} (see {@link #quietBound}). */
    private final QuietInterval quiet = new QuietInterval();
    /** Whether a driver asked for {@link #skipWakeup}: only then is each decision's quiet interval proved. */
    private boolean proveQuiet;

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
        double[] alphas = null;
        int[] sorted = null;
        if (mustReorder(state.now(), active)) {
            alphas = AlphaOrder.sentAlphas(state);
            sorted = AlphaOrder.order(state, alphas);
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
        double[] rate = GreedyCoflowAllocation.allocate(state, indices);
        if (!proveQuiet) {
            return Decision.ofOwnedRates(state, rate);
        }
        if (alphas == null) {
            alphas = AlphaOrder.sentAlphas(state);
            sorted = AlphaOrder.order(state, alphas);
        }
        // Alg. 4's rates are a function of the order and the set of unfinished flows only: while the
        // network is quiet the decision changes only when a re-ordering gives another order.
        quiet.decided(state.now(), Arrays.equals(sorted, indices) ? quietBound(state, sorted, alphas, rate)
                : state.now());
        return Decision.ofOwnedRates(state, rate);
    }

    /**
     * Skips a re-ordering wake-up that provably gives the same order (hence the same rates): the order's
     * time moves to {@code now} as the call would have moved it, and the next wake-up is one period on.
     */
    @Override
    public void enableWakeupSkips() {
        proveQuiet = true;
    }

    @Override
    public double skipWakeup(double now) {
        if (order == null || !quiet.covers(now)) {
            return Double.NaN;
        }
        if (mustReorder(now, orderedSet)) {
            orderTime = now;
        }
        return orderTime + period;
    }

    /**
     * A lower bound on the first instant at which re-ordering by α could give another order than
     * {@code sorted} (the order of {@code alphas}, computed now) if every flow keeps sending at {@code rate}.
     * {@code α_C(t) = max_p (L_Cp + R_Cp·t) / w_C} over the coflow's up and down ports; it lies between
     * {@code (L_Cq + R_Cq·t) / w_C} for a port {@code q} of maximal load now and
     * {@code (max_p L_Cp + t·max_p R_Cp) / w_C}. The order stands while every two neighbours in different
     * tie groups stay more than the tie tolerance apart by those bounds; a tie group stands only if all its
     * coflows are paused (their α do not move), otherwise nothing is proved.
     */
    private double quietBound(ClusterState state, int[] sorted, double[] alphas, double[] rate) {
        int n = sorted.length;
        int hosts = state.network().hostCount();
        // Rates per port, summed over unfinished flows only: a finished flow's rate is 0 and adds nothing.
        double[] flow = new double[2 * hosts];
        double[] low0 = new double[n];
        double[] low1 = new double[n];
        double[] high0 = new double[n];
        double[] high1 = new double[n];
        for (int c = 0; c < n; c++) {
            for (int f : state.unfinishedFlowsOf(c)) {
                flow[state.network().up(state.src(f))] += rate[f];
                flow[state.network().down(state.dst(f))] += rate[f];
            }
            PortSums loads = state.sentPortSums(c);
            double maxLoad = loads.max();
            double maxRate = 0;
            double rateAtMax = 0;
            // A port the coflow does not touch has load and rate 0, which change neither maximum.
            for (int k = 0; k < loads.size(); k++) {
                int p = loads.port(k);
                maxRate = Math.max(maxRate, flow[p]);
                if (loads.sum(k) == maxLoad) {
                    rateAtMax = Math.max(rateAtMax, flow[p]);
                }
                flow[p] = 0.0;
            }
            double w = state.coflow(c).weight();
            low0[c] = maxLoad / w;
            low1[c] = rateAtMax / w;
            high0[c] = maxLoad / w;
            high1[c] = maxRate / w;
        }
        double now = state.now();
        double bound = Double.POSITIVE_INFINITY;
        // The previous tie group's upper bound line (its members' maxima; within a group the tie-break,
        // not α, orders the members, so the group as a whole is what must stay apart from the next one).
        double prevHigh0 = Double.NaN;
        double prevHigh1 = 0;
        int start = 0;
        while (start < n) {
            int end = start + 1;
            while (end < n && AlphaOrder.sameAlpha(alphas[sorted[start]], alphas[sorted[end]])) {
                end++;
            }
            double low0g = Double.POSITIVE_INFINITY;
            double low1g = Double.POSITIVE_INFINITY;
            double high0g = 0;
            double high1g = 0;
            for (int k = start; k < end; k++) {
                int c = sorted[k];
                if (end - start > 1 && high1[c] > 0) {
                    return now; // a moving member of a tie group: prove nothing
                }
                low0g = Math.min(low0g, low0[c]);
                low1g = Math.min(low1g, low1[c]);
                high0g = Math.max(high0g, high0[c]);
                high1g = Math.max(high1g, high1[c]);
            }
            if (!Double.isNaN(prevHigh0)) {
                // Safe while low_next(t) − high_prev(t) > tol·X(t) for X in {1, high_prev, high_next}.
                double d0 = low0g - prevHigh0;
                double d1 = low1g - prevHigh1;
                bound = Math.min(bound, now + firstFailure(d0, d1, 1.0, 0.0));
                bound = Math.min(bound, now + firstFailure(d0, d1, prevHigh0, prevHigh1));
                bound = Math.min(bound, now + firstFailure(d0, d1, high0g, high1g));
            }
            prevHigh0 = high0g;
            prevHigh1 = high1g;
            start = end;
        }
        return bound;
    }

    /** The first {@code t >= 0} at which {@code d0 + d1·t <= TIE·(x0 + x1·t)}; +∞ if never. */
    private static double firstFailure(double d0, double d1, double x0, double x1) {
        double c0 = d0 - AlphaOrder.TIE_TOLERANCE * x0;
        double c1 = d1 - AlphaOrder.TIE_TOLERANCE * x1;
        if (c0 <= 0) {
            return 0.0;
        }
        return c1 >= 0 ? Double.POSITIVE_INFINITY : c0 / -c1;
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
