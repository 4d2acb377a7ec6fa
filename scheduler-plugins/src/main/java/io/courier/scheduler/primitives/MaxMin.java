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
        // The active flows (positive demand, room on every resource), in the order of 'flows', with their resources
        // copied into one flat array: every later pass reads these instead of reaching each flow's own list.
        int[] count = new int[nRes];
        int[] act = new int[nFlows];
        int[] resFrom = new int[nFlows + 1];
        int[] res = new int[2 * nFlows];
        int activeCount = 0;
        for (int k = 0; k < nFlows; k++) {
            int f = flows[k];
            if (demand != null && demand[f] <= eps) {
                continue;
            }
            int[] rs = state.resourcesOf(f);
            boolean ok = true;
            for (int p : rs) {
                if (residual[p] <= eps) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                int at = resFrom[activeCount];
                if (at + rs.length > res.length) {
                    res = Arrays.copyOf(res, Math.max(2 * res.length, at + rs.length));
                }
                for (int p : rs) {
                    count[p]++;
                    res[at++] = p;
                }
                act[activeCount++] = f;
                resFrom[activeCount] = at;
            }
        }
        if (activeCount == 0) {
            return;
        }
        int[] start = new int[nRes + 1];
        for (int p = 0; p < nRes; p++) {
            start[p + 1] = start[p] + count[p];
        }
        int[] members = new int[start[nRes]]; // resource -> positions in 'act' of the flows using it, ascending
        int[] fillPos = Arrays.copyOf(start, nRes);
        for (int j = 0; j < activeCount; j++) {
            for (int m = resFrom[j]; m < resFrom[j + 1]; m++) {
                members[fillPos[res[m]]++] = j;
            }
        }
        double[] frozenUse = new double[nRes];   // sum of levels of flows frozen on p
        int[] unfrozen = count;                   // reuse: number of active, unfrozen flows on p
        double[] x = new double[activeCount];
        boolean[] frozen = new boolean[activeCount];
        LevelHeap events = new LevelHeap(nRes);
        for (int p = 0; p < nRes; p++) {
            if (unfrozen[p] > 0) {
                events.add(residual[p] / unfrozen[p], p);
            }
        }
        Integer[] byDemand = null;
        int nextDemand = 0;
        if (demand != null) {
            byDemand = new Integer[activeCount];
            for (int j = 0; j < activeCount; j++) {
                byDemand[j] = j;
            }
            final double[] dem = demand;
            final int[] flowAt = act;
            Arrays.sort(byDemand, (a, b) -> Double.compare(dem[flowAt[a]], dem[flowAt[b]]));
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
                    ? demand[act[byDemand[nextDemand]]] : Double.POSITIVE_INFINITY;
            if (resP < 0 && Double.isInfinite(demLevel)) {
                break; // cannot happen: every active flow has resources
            }
            if (demLevel <= resLevel) {
                int j = byDemand[nextDemand++];
                freeze(j, demLevel, resFrom, res, x, frozen, frozenUse, unfrozen);
                remaining--;
            } else {
                double level = Math.max(0.0, resLevel);
                events.poll();
                for (int m = start[resP]; m < start[resP + 1]; m++) {
                    int j = members[m];
                    if (!frozen[j]) {
                        freeze(j, level, resFrom, res, x, frozen, frozenUse, unfrozen);
                        remaining--;
                    }
                }
            }
        }
        for (int j = 0; j < activeCount; j++) {
            double xj = x[j];
            if (xj > 0) {
                rate[act[j]] += xj;
                for (int m = resFrom[j]; m < resFrom[j + 1]; m++) {
                    int p = res[m];
                    residual[p] = Math.max(0.0, residual[p] - xj);
                }
            }
        }
    }

    private static void freeze(int j, double level, int[] resFrom, int[] res, double[] x, boolean[] frozen,
            double[] frozenUse, int[] unfrozen) {
        frozen[j] = true;
        x[j] = level;
        for (int m = resFrom[j]; m < resFrom[j + 1]; m++) {
            int p = res[m];
            frozenUse[p] += level;
            unfrozen[p]--;
        }
    }
}
