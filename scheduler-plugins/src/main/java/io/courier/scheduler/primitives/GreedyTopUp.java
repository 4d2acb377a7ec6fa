package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.PortGroups;
import java.util.Arrays;

/**
 * P4 of SCHEDULERS.md §0.5: in list order, every flow takes all that is left on its tightest resource.
 * It is how order-preserving schedulers stay work-conserving.
 */
public final class GreedyTopUp {
    private GreedyTopUp() {
    }

    /**
     * Tops up the unfinished flows of coflow {@code c} in order, exactly as {@link #apply} on
     * {@code state.unfinishedFlowsOf(c)} does, but visits only the flows both of whose host ports have something
     * left: residuals only shrink, so a flow with a spent port gets nothing at its turn anyway. Under an order most
     * coflows wait behind others on the ports they need, and a long-running coflow may have tens of thousands of
     * flows; the candidates are found through the coflow's flows grouped by the side (source or destination)
     * whose open ports carry fewer of them.
     */
    public static void applyToCoflow(ClusterState state, int c, double[] residual, double[] rate) {
        applyToCoflow(state, c, new OpenHostPorts(state.network(), residual), rate, null);
    }

    /**
     * {@link #applyToCoflow(ClusterState, int, double[], double[])} on {@code open}'s residual array, looking only at
     * the ports {@code open} still lists: an enforcer that tops up coflow after coflow keeps one {@link OpenHostPorts}
     * for all of them (and this call brings its lists up to date after spending). The result is the same: a spent port
     * contributes no candidate either way. A flow whose rate was 0 and is topped up is added to {@code topped} when
     * that is not null.
     */
    public static void applyToCoflow(ClusterState state, int c, OpenHostPorts open, double[] rate,
            ToppedFlows topped) {
        if (open.exhausted()) {
            return;
        }
        Network net = state.network();
        double[] residual = open.residual();
        PortGroups bySrc = state.unfinishedBySrc(c);
        PortGroups byDst = state.unfinishedByDst(c);
        int viaSrc = 0;
        int viaDst = 0;
        int[] upHosts = open.hosts(true);
        for (int k = 0, n = open.count(true); k < n; k++) {
            viaSrc += bySrc.count(upHosts[k]);
        }
        if (viaSrc == 0) {
            return;
        }
        int[] downHosts = open.hosts(false);
        for (int k = 0, n = open.count(false); k < n; k++) {
            viaDst += byDst.count(downHosts[k]);
        }
        if (viaDst == 0) {
            return;
        }
        int[] flows = state.unfinishedFlowsOf(c);
        int via = Math.min(viaSrc, viaDst);
        if (via > flows.length / 4) {
            apply(state, flows, residual, rate, topped); // most flows are candidates: filtering and sorting cost more
            open.refresh();
            return;
        }
        double eps = net.rateEpsilon();
        boolean srcSide = viaSrc <= viaDst;
        PortGroups groups = srcSide ? bySrc : byDst;
        int[] hosts = open.hosts(srcSide);
        int[] candidates = new int[via];
        int n = 0;
        for (int k = 0, m = open.count(srcSide); k < m; k++) {
            int h = hosts[k];
            for (int j = 0, size = groups.count(h); j < size; j++) {
                int f = groups.flow(h, j);
                int other = srcSide ? net.down(state.dst(f)) : net.up(state.src(f));
                if (residual[other] > eps) {
                    candidates[n++] = f;
                }
            }
        }
        if (n == 0) {
            return;
        }
        candidates = Arrays.copyOf(candidates, n);
        Arrays.sort(candidates); // the coflow's flow order, which decides who takes a shared port first
        apply(state, candidates, residual, rate, topped);
        open.refresh();
    }

    /** Tops up {@code flows} in order; finished flows are skipped. */
    public static void apply(ClusterState state, int[] flows, double[] residual, double[] rate) {
        apply(state, flows, residual, rate, null);
    }

    private static void apply(ClusterState state, int[] flows, double[] residual, double[] rate, ToppedFlows topped) {
        Network net = state.network();
        double eps = net.rateEpsilon();
        if (net.linkCount() == 0) {
            // Every flow uses exactly its two host ports: read them from the state's columns rather than through
            // each flow's resource array, a pointer per flow (the same values, in the same order).
            for (int f : flows) {
                if (state.finished(f)) {
                    continue;
                }
                int up = net.up(state.src(f));
                int down = net.down(state.dst(f));
                double a = Math.min(residual[up], residual[down]);
                if (a <= eps) {
                    continue;
                }
                if (topped != null && rate[f] == 0.0) {
                    topped.add(f);
                }
                rate[f] += a;
                residual[up] = Math.max(0.0, residual[up] - a);
                residual[down] = Math.max(0.0, residual[down] - a);
            }
            return;
        }
        for (int f : flows) {
            if (state.finished(f)) {
                continue;
            }
            int[] res = state.resourcesOf(f);
            double a = Double.POSITIVE_INFINITY;
            for (int p : res) {
                a = Math.min(a, residual[p]);
            }
            if (a <= eps) {
                continue;
            }
            if (topped != null && rate[f] == 0.0) {
                topped.add(f);
            }
            rate[f] += a;
            for (int p : res) {
                residual[p] = Math.max(0.0, residual[p] - a);
            }
        }
    }
}
