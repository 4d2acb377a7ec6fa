package io.courier.scheduler.iaoa;

import io.courier.scheduler.model.ClusterState;
import java.util.Arrays;

/**
 * Every active coflow's cumulative bytes sent per host port (Alg. 3 line 2 of seed 004, finished flows included),
 * kept sparse: for coflow {@code c} the ports its flows touch, {@code port(k)} and {@code load(k)} for {@code k} in
 * {@code [from(c), to(c))}. IAOA needs these loads twice per decision — for {@code α} and for the proof of how long
 * the order stands — and summing them means a walk over every flow of every active coflow, finished or not, the
 * largest per-decision pass at trace scale; this walks them once.
 *
 * <p>Each load is summed in flow order, as {@link AlphaOrder#sentAlphas} does, so the values are the same to the
 * last bit. Immutable once built; not shared across states.
 */
final class SentPortLoads {
    private final int[] start;
    private final int[] ports;
    private final double[] loads;
    private final double[] maxLoad;

    private SentPortLoads(int[] start, int[] ports, double[] loads, double[] maxLoad) {
        this.start = start;
        this.ports = ports;
        this.loads = loads;
        this.maxLoad = maxLoad;
    }

    /** The loads of every coflow of {@code state}; ports are numbered up {@code 0..hosts-1}, then down. */
    static SentPortLoads of(ClusterState state) {
        int hosts = state.network().hostCount();
        int n = state.coflowCount();
        int[] start = new int[n + 1];
        int capacity = 0;
        for (int c = 0; c < n; c++) {
            capacity += Math.min(2 * state.flowsOf(c).length, 2 * hosts);
        }
        int[] ports = new int[capacity];
        double[] loads = new double[capacity];
        double[] maxLoad = new double[n];
        double[] load = new double[2 * hosts];
        boolean[] seen = new boolean[2 * hosts];
        int k = 0;
        for (int c = 0; c < n; c++) {
            int first = k;
            int[] flows = state.flowsOf(c);
            for (int f : flows) {
                double sent = state.sent(f);
                int up = state.src(f);
                int down = hosts + state.dst(f);
                load[up] += sent;
                load[down] += sent;
                if (!seen[up]) {
                    seen[up] = true;
                    ports[k++] = up;
                }
                if (!seen[down]) {
                    seen[down] = true;
                    ports[k++] = down;
                }
            }
            // Ports in ascending order, so that a coflow's entries do not depend on which flow came first.
            Arrays.sort(ports, first, k);
            double max = 0;
            for (int j = first; j < k; j++) {
                int p = ports[j];
                loads[j] = load[p];
                max = Math.max(max, load[p]);
                load[p] = 0.0;
                seen[p] = false;
            }
            maxLoad[c] = max;
            start[c + 1] = k;
        }
        return new SentPortLoads(start, ports, loads, maxLoad);
    }

    int from(int coflow) {
        return start[coflow];
    }

    int to(int coflow) {
        return start[coflow + 1];
    }

    int port(int k) {
        return ports[k];
    }

    double load(int k) {
        return loads[k];
    }

    /** The coflow's length {@code l_C}: its largest port load (0 when it sent nothing). */
    double maxLoad(int coflow) {
        return maxLoad[coflow];
    }

    /** {@code α_C = l_C / w_C} of every coflow, as {@link AlphaOrder#sentAlphas}. */
    double[] alphas(ClusterState state) {
        double[] alpha = new double[maxLoad.length];
        for (int c = 0; c < alpha.length; c++) {
            alpha[c] = maxLoad[c] / state.coflow(c).weight();
        }
        return alpha;
    }
}
