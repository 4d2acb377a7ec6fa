package io.courier.scheduler.iaoa;

import io.courier.scheduler.model.ClusterState;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The "length over weight" priority of seed 004 (SCHEDULERS.md §9): a coflow's length {@code l_C} is
 * its largest port load, {@code α_C = l_C / w_C}, and coflows are served in ascending {@code α}.
 * IAOA (Alg. 3) measures the load in bytes <em>sent</em>; Simple-offline (Alg. 2) in total bytes.
 *
 * <p>Ties (equal {@code α} within the byte tolerance of §0.4): higher weight first, then earlier
 * arrival, then smaller id [proposed, §15 item 8]. Only up and down ports count, as in Alg. 2 and 3.
 */
public final class AlphaOrder {
    private AlphaOrder() {
    }

    /** {@code α_C} from cumulative bytes sent, finished flows included (Alg. 3 lines 5-9), per coflow index. */
    public static double[] sentAlphas(ClusterState state) {
        double[] alpha = new double[state.coflowCount()];
        for (int c = 0; c < alpha.length; c++) {
            // The largest port sum; summed in flow order, so equal to the running maximum of a dense walk.
            alpha[c] = state.sentPortSums(c).max() / state.coflow(c).weight();
        }
        return alpha;
    }

    /**
     * {@code L^C / w_C} from total flow sizes (Alg. 2 line 3), per coflow index. Needs visible sizes;
     * an unknown or hidden size is an error that names the flow.
     */
    public static double[] totalSizeAlphas(ClusterState state) {
        int hosts = state.network().hostCount();
        double[] load = new double[2 * hosts];
        double[] alpha = new double[state.coflowCount()];
        for (int c = 0; c < alpha.length; c++) {
            Arrays.fill(load, 0.0);
            double length = 0;
            for (int f : state.flowsOf(c)) {
                // The flow object checks that sizes are visible.
                double bytes = state.flow(f).size();
                int up = state.src(f);
                int down = hosts + state.dst(f);
                load[up] += bytes;
                load[down] += bytes;
                length = Math.max(length, Math.max(load[up], load[down]));
            }
            alpha[c] = length / state.coflow(c).weight();
        }
        return alpha;
    }

    /**
     * Coflow indices in ascending {@code alpha}, ties as in the class comment. Ties are grouped against
     * the first key of a run rather than compared pairwise, so the sort stays a total order.
     */
    public static int[] order(ClusterState state, double[] alpha) {
        int n = state.coflowCount();
        if (alpha.length != n) {
            throw new IllegalArgumentException("alpha has " + alpha.length + " entries for " + n + " coflows");
        }
        Integer[] idx = new Integer[n];
        for (int c = 0; c < n; c++) {
            if (Double.isNaN(alpha[c])) {
                throw new IllegalArgumentException("alpha of " + state.coflow(c).id() + " is NaN");
            }
            idx[c] = c;
        }
        // Coflow indices already follow (arrival, id), so the index is the last tie-breaker.
        Comparator<Integer> tie = (a, b) -> {
            int w = Double.compare(state.coflow(b).weight(), state.coflow(a).weight());
            return w != 0 ? w : Integer.compare(a, b);
        };
        Arrays.sort(idx, (a, b) -> {
            int k = Double.compare(alpha[a], alpha[b]);
            return k != 0 ? k : tie.compare(a, b);
        });
        int start = 0;
        while (start < n) {
            int end = start + 1;
            while (end < n && sameAlpha(alpha[idx[start]], alpha[idx[end]])) {
                end++;
            }
            if (end - start > 1) {
                Arrays.sort(idx, start, end, tie);
            }
            start = end;
        }
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            out[k] = idx[k];
        }
        return out;
    }

    /** The relative tolerance of {@link #sameAlpha}. */
    static final double TIE_TOLERANCE = 1e-6;

    /** {@code EPS_BYTES} of SCHEDULERS.md §0.4 applied to bytes per unit weight. */
    static boolean sameAlpha(double a, double b) {
        if (a == b) {
            return true;
        }
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            return false;
        }
        return Math.abs(a - b) <= TIE_TOLERANCE * Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
    }
}
