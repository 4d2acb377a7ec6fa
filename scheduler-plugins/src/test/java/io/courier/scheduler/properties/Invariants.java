package io.courier.scheduler.properties;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks behind the scheduler properties. Each throws an {@link AssertionError} that names the
 * configuration, the broken rule and the offending flow or resource; they are separate from the properties
 * so that {@link SchedulerClaimsTest} can show each of them failing on a hand-made bad case.
 *
 * <p>Tolerances follow SCHEDULERS.md §0.4: {@code EPS_RATE = 1e-9 · max cap}. A resource counts as full when
 * its residual is at most {@code 2 · EPS_RATE}: the primitives stop filling at {@code EPS_RATE}, and the
 * residual recomputed here from the rates carries its own rounding.
 */
final class Invariants {
    private Invariants() {
    }

    /** (1) The load of every resource is at most its capacity (plus {@code EPS_RATE}). */
    static void withinCapacity(String who, ClusterState state, double[] rate, boolean includeLinks) {
        Network n = state.network();
        double[] load = load(state, rate);
        double eps = n.rateEpsilon();
        for (int p = 0; p < load.length; p++) {
            if (!includeLinks && n.isLink(p)) {
                continue;
            }
            if (load[p] > n.capacity(p) + eps) {
                throw new AssertionError(who + ": " + n.resourceName(p) + " is over capacity after enforcement: load "
                        + load[p] + " > capacity " + n.capacity(p) + " (flows " + flowsOn(state, rate, p) + ")");
            }
        }
    }

    /** (2) Every enforced rate and every rate the decision names is finite and {@code >= 0}. */
    static void ratesAreNonNegativeNumbers(String who, ClusterState state, Decision decision, double[] rate) {
        for (int i = 0; i < rate.length; i++) {
            if (!(rate[i] >= 0) || Double.isInfinite(rate[i])) {
                throw new AssertionError(who + ": enforced rate of " + state.flow(i) + " is " + rate[i]
                        + " (must be a finite number >= 0)");
            }
        }
        for (Map.Entry<FlowId, Double> e : decision.rates().entrySet()) {
            if (e.getValue() == null || !(e.getValue() >= 0) || Double.isInfinite(e.getValue())) {
                throw new AssertionError(who + ": decision rate of " + e.getKey() + " is " + e.getValue());
            }
        }
    }

    /**
     * (3) A rate-based decision names every unfinished flow, and no flow outside the state; finished flows,
     * if named, get 0. An order-based decision gives every unfinished flow a priority.
     */
    static void everyUnfinishedFlowAccountedFor(String who, ClusterState state, Decision decision) {
        List<FlowId> missing = new ArrayList<>();
        Map<FlowId, ?> named = decision.type() == SchedulerType.RATE_BASED ? decision.rates() : decision.priorities();
        for (int f : state.unfinishedFlows()) {
            if (!named.containsKey(state.flow(f).id())) {
                missing.add(state.flow(f).id());
            }
        }
        if (!missing.isEmpty()) {
            throw new AssertionError(who + ": the " + decision.type() + " decision does not name unfinished "
                    + (decision.type() == SchedulerType.RATE_BASED ? "flows (rate) " : "flows (priority) ") + missing);
        }
        for (FlowId id : named.keySet()) {
            int i = state.indexOf(id);
            if (i < 0) {
                throw new AssertionError(who + ": the decision names " + id + ", which is not in the state");
            }
            if (decision.type() == SchedulerType.RATE_BASED && state.flow(i).finished() && decision.rateOf(id) != 0) {
                throw new AssertionError(who + ": finished " + state.flow(i) + " gets rate " + decision.rateOf(id));
            }
        }
    }

    /** (4) The coflow order of an order-based decision is a permutation of the active coflows. */
    static void orderIsPermutationOfActiveCoflows(String who, ClusterState state, Decision decision) {
        List<CoflowId> order = decision.coflowOrder();
        Set<CoflowId> active = new HashSet<>();
        for (int c = 0; c < state.coflowCount(); c++) {
            active.add(state.coflow(c).id());
        }
        Set<CoflowId> seen = new HashSet<>();
        for (CoflowId id : order) {
            if (!active.contains(id)) {
                throw new AssertionError(who + ": the order names " + id + ", which is not active; order " + order);
            }
            if (!seen.add(id)) {
                throw new AssertionError(who + ": the order names " + id + " twice: " + order);
            }
        }
        if (seen.size() != active.size()) {
            active.removeAll(seen);
            throw new AssertionError(who + ": the order " + order + " leaves out active coflows " + active);
        }
    }

    /**
     * (5) Work conservation: every unfinished flow crosses at least one resource that is full against
     * {@code capacity} (physical capacities, or the planning capacities with link estimates).
     */
    static void workConserving(String who, ClusterState state, double[] rate, double[] capacity) {
        Network n = state.network();
        double[] load = load(state, rate);
        double full = 2 * n.rateEpsilon();
        for (int f : state.unfinishedFlows()) {
            boolean blocked = false;
            StringBuilder residuals = new StringBuilder();
            for (int p : state.resourcesOf(f)) {
                double residual = capacity[p] - load[p];
                blocked |= residual <= full;
                residuals.append(residuals.length() == 0 ? "" : ", ").append(n.resourceName(p)).append(" residual ")
                        .append(residual);
            }
            if (!blocked) {
                throw new AssertionError(who + ": not work-conserving: " + state.flow(f) + " has rate " + rate[f]
                        + " although none of its resources is full (" + residuals + ")");
            }
        }
    }

    /** (6), (8) Two decisions are identical: type, every rate, the order and every priority. */
    static void sameDecision(String who, String why, Decision a, Decision b) {
        if (a.type() != b.type() || !a.rates().equals(b.rates()) || !a.coflowOrder().equals(b.coflowOrder())
                || !a.priorities().equals(b.priorities())) {
            throw new AssertionError(who + ": " + why + ", but the decisions differ:\n  " + a + "\n  " + b);
        }
    }

    /** (7) A wake-up time is {@code >= now} or {@code +∞}, never NaN. */
    static void wakeupNotInThePast(String who, ClusterState state, double wakeup) {
        if (Double.isNaN(wakeup) || wakeup < state.now() || wakeup == Double.NEGATIVE_INFINITY) {
            throw new AssertionError(who + ": nextWakeup is " + wakeup + " at now = " + state.now()
                    + " (must be >= now or +Infinity)");
        }
    }

    private static double[] load(ClusterState state, double[] rate) {
        double[] load = new double[state.network().resourceCount()];
        for (int i = 0; i < rate.length; i++) {
            for (int p : state.resourcesOf(i)) {
                load[p] += rate[i];
            }
        }
        return load;
    }

    private static String flowsOn(ClusterState state, double[] rate, int resource) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < rate.length; i++) {
            for (int p : state.resourcesOf(i)) {
                if (p == resource && rate[i] > 0) {
                    Flow f = state.flow(i);
                    s.append(s.length() == 0 ? "" : ", ").append(f.id()).append('=').append(rate[i]);
                }
            }
        }
        return s.toString();
    }
}
