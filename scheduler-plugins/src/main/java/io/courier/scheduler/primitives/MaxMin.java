package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import java.util.Arrays;

/**
 * P1 of SCHEDULERS.md §0.5: exact max-min fair progressive filling (water-filling) of a set of flows
 * on residual capacities, with optional per-flow demand caps.
 *
 * <p>Instead of raising all flows by one step per iteration ({@code O(|P|·|F|)}), it tracks the common
 * "water level" of the unfrozen flows and, with a heap, the level at which each resource saturates; a
 * frozen flow updates only its own resources. Cost: {@code O(Σ|Res(f)| · log |P|)}. The result is the
 * same as the spec's loop: flows on a resource whose residual is already {@code <= EPS} get 0.
 */
public final class MaxMin {
    private MaxMin() {
    }

    /**
     * Fills {@code flows} on {@code residual} (modified: the allocated rates are subtracted) and adds each
     * flow's share to {@code rate[flow]}.
     *
     * @param demand per-flow demand caps indexed by flow index, or {@code null} for infinite demand
     */
    public static void fill(ClusterState state, int[] flows, double[] residual, double[] demand, double[] rate) {
        int nFlows = flows.length;
        if (nFlows == 0) {
            return;
        }
        double eps = state.network().rateEpsilon();
        int nRes = residual.length;
        // CSR adjacency resource -> positions in 'flows' of the active flows using it.
        int[] count = new int[nRes];
        boolean[] active = new boolean[nFlows];
        int activeCount = 0;
        for (int k = 0; k < nFlows; k++) {
            int f = flows[k];
            if (demand != null && demand[f] <= eps) {
                continue;
            }
            boolean ok = true;
            for (int p : state.resourcesOf(f)) {
                if (residual[p] <= eps) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                active[k] = true;
                activeCount++;
                for (int p : state.resourcesOf(f)) {
                    count[p]++;
                }
            }
        }
        if (activeCount == 0) {
            return;
        }
        int[] start = new int[nRes + 1];
        for (int p = 0; p < nRes; p++) {
            start[p + 1] = start[p] + count[p];
        }
        int[] members = new int[start[nRes]];
        int[] fillPos = Arrays.copyOf(start, nRes);
        for (int k = 0; k < nFlows; k++) {
            if (active[k]) {
                for (int p : state.resourcesOf(flows[k])) {
                    members[fillPos[p]++] = k;
                }
            }
        }
        double[] frozenUse = new double[nRes];   // sum of levels of flows frozen on p
        int[] unfrozen = count;                   // reuse: number of active, unfrozen flows on p
        double[] x = new double[nFlows];
        boolean[] frozen = new boolean[nFlows];
        LevelHeap events = new LevelHeap(nRes);
        for (int p = 0; p < nRes; p++) {
            if (unfrozen[p] > 0) {
                events.add(residual[p] / unfrozen[p], p);
            }
        }
        Integer[] byDemand = null;
        int nextDemand = 0;
        if (demand != null) {
            int n = 0;
            byDemand = new Integer[activeCount];
            for (int k = 0; k < nFlows; k++) {
                if (active[k]) {
                    byDemand[n++] = k;
                }
            }
            final double[] dem = demand;
            Arrays.sort(byDemand, (a, b) -> Double.compare(dem[flows[a]], dem[flows[b]]));
        }
        int remaining = activeCount;
        while (remaining > 0) {
            // Next resource saturation (lazy heap: skip stale entries).
            double resLevel = Double.POSITIVE_INFINITY;
            int resP = -1;
            while (!events.isEmpty()) {
                int p = events.peekResource();
                if (unfrozen[p] == 0) {
                    events.poll();
                    continue;
                }
                double current = (residual[p] - frozenUse[p]) / unfrozen[p];
                if (current != events.peekLevel()) {
                    events.poll();
                    events.add(current, p);
                    continue;
                }
                resLevel = current;
                resP = p;
                break;
            }
            while (byDemand != null && nextDemand < byDemand.length && frozen[byDemand[nextDemand]]) {
                nextDemand++;
            }
            double demLevel = byDemand != null && nextDemand < byDemand.length
                    ? demand[flows[byDemand[nextDemand]]] : Double.POSITIVE_INFINITY;
            if (resP < 0 && Double.isInfinite(demLevel)) {
                break; // cannot happen: every active flow has resources
            }
            if (demLevel <= resLevel) {
                freeze(state, flows, byDemand[nextDemand++], demLevel, x, frozen, frozenUse, unfrozen);
                remaining--;
            } else {
                double level = Math.max(0.0, resLevel);
                events.poll();
                for (int m = start[resP]; m < start[resP + 1]; m++) {
                    int k = members[m];
                    if (!frozen[k]) {
                        freeze(state, flows, k, level, x, frozen, frozenUse, unfrozen);
                        remaining--;
                    }
                }
            }
        }
        for (int k = 0; k < nFlows; k++) {
            if (x[k] > 0) {
                int f = flows[k];
                rate[f] += x[k];
                for (int p : state.resourcesOf(f)) {
                    residual[p] = Math.max(0.0, residual[p] - x[k]);
                }
            }
        }
    }

    private static void freeze(ClusterState state, int[] flows, int k, double level, double[] x, boolean[] frozen,
            double[] frozenUse, int[] unfrozen) {
        frozen[k] = true;
        x[k] = level;
        for (int p : state.resourcesOf(flows[k])) {
            frozenUse[p] += level;
            unfrozen[p]--;
        }
    }
}
