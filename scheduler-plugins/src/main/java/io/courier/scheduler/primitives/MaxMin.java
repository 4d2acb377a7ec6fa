package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Network;
import java.util.Arrays;

/**
 * P1 of SCHEDULERS.md §0.5: exact max-min fair progressive filling (water-filling) of a set of flows
 * on residual capacities, with optional per-flow demand caps.
 *
 * <p>Instead of raising all flows by one step per iteration ({@code O(|P|·|F|)}), it tracks the common
 * "water level" of the unfrozen flows and, with a heap, the level at which each resource saturates; a
 * frozen flow updates only its own resources. Cost: {@code O(Σ|Res(f)| · log |P|)}. The result is the
 * same as the spec's loop: flows on a resource whose residual is already {@code <= EPS} get 0. On a big switch
 * without demand caps, with at most four host pairs per flow given, the same filling runs over host pairs
 * ({@link HostPairFilling}), bit for bit the same result.
 */
public final class MaxMin {
    private MaxMin() {
    }

    /**
     * Fills {@code flows} on {@code residual} (modified: the allocated rates are subtracted) and adds each
     * flow's share to {@code rate[flow]}.
     *
     * @param demand per-flow demand caps indexed by flow index, or {@code null} for infinite demand
     * @return how many of the flows got a positive rate
     */
    public static int fill(ClusterState state, int[] flows, double[] residual, double[] demand, double[] rate) {
        if (demand == null && flows.length > 0 && HostPairFilling.applies(state.network(), flows.length)) {
            return HostPairFilling.fill(state, flows, residual, rate);
        }
        return fillPerFlow(state, flows, residual, demand, rate);
    }

    /** The filling flow by flow, for any network and demand caps; {@link #fill} without its host-pair shortcut. */
    static int fillPerFlow(ClusterState state, int[] flows, double[] residual, double[] demand, double[] rate) {
        if (flows.length == 0) {
            return 0;
        }
        double eps = state.network().rateEpsilon();
        int nRes = residual.length;
        ActiveFlows active = ActiveFlows.of(state, flows, residual, demand, eps);
        int activeCount = active.count;
        if (activeCount == 0) {
            return 0;
        }
        int[] resStart = active.resStart;
        int[] res = active.res;
        int[] unfrozen = new int[nRes];           // number of active, unfrozen flows on p
        for (int i = 0; i < resStart[activeCount]; i++) {
            unfrozen[res[i]]++;
        }
        // CSR adjacency resource -> active flows (indices into 'active') using it, in ascending order.
        int[] start = new int[nRes + 1];
        for (int p = 0; p < nRes; p++) {
            start[p + 1] = start[p] + unfrozen[p];
        }
        int[] members = new int[start[nRes]];
        int[] fillPos = Arrays.copyOf(start, nRes);
        for (int a = 0; a < activeCount; a++) {
            for (int i = resStart[a]; i < resStart[a + 1]; i++) {
                members[fillPos[res[i]]++] = a;
            }
        }
        double[] frozenUse = new double[nRes];   // sum of levels of flows frozen on p
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
            for (int a = 0; a < activeCount; a++) {
                byDemand[a] = a;
            }
            final double[] dem = demand;
            final int[] act = active.flows;
            Arrays.sort(byDemand, (a, b) -> Double.compare(dem[act[a]], dem[act[b]]));
        }
        int remaining = activeCount;
        while (remaining > 0) {
            int resP = events.nextSaturation(residual, frozenUse, unfrozen);
            double resLevel = resP < 0 ? Double.POSITIVE_INFINITY : events.peekLevel();
            while (byDemand != null && nextDemand < byDemand.length && frozen[byDemand[nextDemand]]) {
                nextDemand++;
            }
            double demLevel = byDemand != null && nextDemand < byDemand.length
                    ? demand[active.flows[byDemand[nextDemand]]] : Double.POSITIVE_INFINITY;
            if (resP < 0 && Double.isInfinite(demLevel)) {
                break; // cannot happen: every active flow has resources
            }
            if (demLevel <= resLevel) {
                freeze(active, byDemand[nextDemand++], demLevel, x, frozen, frozenUse, unfrozen);
                remaining--;
            } else {
                double level = Math.max(0.0, resLevel);
                events.poll();
                for (int m = start[resP]; m < start[resP + 1]; m++) {
                    int a = members[m];
                    if (!frozen[a]) {
                        freeze(active, a, level, x, frozen, frozenUse, unfrozen);
                        remaining--;
                    }
                }
            }
        }
        int given = 0;
        for (int a = 0; a < activeCount; a++) {
            if (x[a] > 0) {
                given++;
                rate[active.flows[a]] += x[a];
                for (int i = resStart[a]; i < resStart[a + 1]; i++) {
                    residual[res[i]] = Math.max(0.0, residual[res[i]] - x[a]);
                }
            }
        }
        return given;
    }

    /** Freezes active flow {@code a} at {@code level}. */
    private static void freeze(ActiveFlows active, int a, double level, double[] x, boolean[] frozen,
            double[] frozenUse, int[] unfrozen) {
        frozen[a] = true;
        x[a] = level;
        for (int i = active.resStart[a]; i < active.resStart[a + 1]; i++) {
            int p = active.res[i];
            frozenUse[p] += level;
            unfrozen[p]--;
        }
    }

    /**
     * The flows that can get a rate at all (demand left, every resource with capacity left), in the order given, with
     * their resources copied side by side: under strict priority most flows of a low-priority coflow find a resource
     * already full, so the filling is sized and walked by these only, and reads their resources sequentially instead
     * of through each flow's own array.
     */
    private static final class ActiveFlows {
        final int[] flows;
        final int count;
        /** Active flow {@code a} uses {@code res[resStart[a] .. resStart[a + 1] - 1]}. */
        final int[] resStart;
        final int[] res;

        private ActiveFlows(int[] flows, int count, int[] resStart, int[] res) {
            this.flows = flows;
            this.count = count;
            this.resStart = resStart;
            this.res = res;
        }

        static ActiveFlows of(ClusterState state, int[] flows, double[] residual, double[] demand, double eps) {
            Network net = state.network();
            int[] active = new int[flows.length];
            int[] resStart = new int[flows.length + 1];
            int[] res = new int[2 * flows.length];
            int n = 0;
            int r = 0;
            if (net.linkCount() == 0) {
                // Every flow uses exactly its two host ports: read them from the state's columns rather than through
                // each flow's resource array, a pointer per flow (the same resources, in the same order).
                for (int f : flows) {
                    if (demand != null && demand[f] <= eps) {
                        continue;
                    }
                    int up = net.up(state.src(f));
                    int down = net.down(state.dst(f));
                    if (residual[up] > eps && residual[down] > eps) {
                        active[n++] = f;
                        res[r++] = up;
                        res[r++] = down;
                        resStart[n] = r;
                    }
                }
                return new ActiveFlows(active, n, resStart, res);
            }
            for (int f : flows) {
                if (demand != null && demand[f] <= eps) {
                    continue;
                }
                int[] own = state.resourcesOf(f);
                boolean ok = true;
                for (int k = 0; k < own.length && ok; k++) {
                    ok = residual[own[k]] > eps;
                }
                if (ok) {
                    if (r + own.length > res.length) {
                        res = Arrays.copyOf(res, Math.max(2 * res.length, r + own.length));
                    }
                    active[n++] = f;
                    System.arraycopy(own, 0, res, r, own.length);
                    r += own.length;
                    resStart[n] = r;
                }
            }
            return new ActiveFlows(active, n, resStart, res);
        }
    }
}
