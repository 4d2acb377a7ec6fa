package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Network;
import java.util.Arrays;

/**
 * The allocation step shared by the least-attained-service schedulers (Aalo's D-CLAS, SCHEDULERS.md §4,
 * and step 1 of Fai, §6): coflows sit in queues {@code 0..K-1}; queues are served in order, and inside a
 * queue coflows are served FIFO by arrival, where coflows with an <em>equal</em> arrival time form one
 * tie group whose flows share jointly (spec §15.2, needed to reproduce the Fai Fig. 1 example).
 *
 * <p>Two inter-queue policies: strict priority (the default of CoflowSim and the Aalo prototype), and
 * work-conserving weighted fair queueing with per-queue weights (Fai Alg. 1), where on every resource a
 * queue is entitled to {@code cap · w_q / W_p}, {@code W_p} being the weight sum of the queues that have an
 * unfinished flow on that resource.
 */
public final class QueueAllocation {
    /**
     * Fewest unfinished flows for which a coflow is checked for spent ports before its sharing: below it the
     * sharing's own pass is about as cheap as the check (whose hosts a coflow computes once).
     */
    private static final int WIDE = 64;

    private QueueAllocation() {
    }

    /** How a tie group shares what its queue may use. */
    public enum GroupSharing {
        /** Exact max-min (P1) among the group's flows: Aalo's "f.rate ← max-min fair share". */
        MAX_MIN,
        /** CoflowSim's and the Aalo prototype's one-shot equal share (P5); leaves slack. */
        ONE_SHOT
    }

    /**
     * Strict priority across queues. Adds to {@code rate} and subtracts from {@code residual}.
     *
     * @param queueOf queue of each coflow, indexed like {@code state.coflows()}
     * @return for each coflow, whether it is known to have got nothing: true only when its tie group got no rate at
     *         all (false says nothing), so that a caller can skip a pass over its flows that would find them all at 0
     */
    public static boolean[] strict(ClusterState state, int[] queueOf, int queues, GroupSharing sharing,
            double[] residual, double[] rate) {
        boolean[] idle = new boolean[queueOf.length];
        for (int q = 0; q < queues; q++) {
            for (int[] group : groups(state, queueOf, q)) {
                if (!share(state, group, residual, rate, sharing)) {
                    for (int c : group) {
                        idle[c] = true;
                    }
                }
            }
        }
        return idle;
    }

    /**
     * Weighted fair queueing across queues (Fai Alg. 1, step 1, spec §6). Adds to {@code rate} and
     * subtracts from {@code residual}.
     *
     * @param weight weight of each queue ({@code > 0}), indexed by queue
     * @return for each coflow, whether it is known to have got nothing (as {@link #strict})
     */
    public static boolean[] weighted(ClusterState state, int[] queueOf, double[] weight, GroupSharing sharing,
            double[] residual, double[] rate) {
        int queues = weight.length;
        int nRes = residual.length;
        // W_p: weight sum of the queues with an unfinished flow on p.
        boolean[][] activeOn = new boolean[queues][nRes];
        double[] weightSum = new double[nRes];
        for (int f = 0; f < state.flowCount(); f++) {
            if (state.finished(f)) {
                continue;
            }
            int q = queueOf[state.coflowOf(f)];
            for (int p : state.resourcesOf(f)) {
                if (!activeOn[q][p]) {
                    activeOn[q][p] = true;
                    weightSum[p] += weight[q];
                }
            }
        }
        // Entitlements come from the capacity the allocation starts with, not from what earlier queues left.
        double[] initial = residual.clone();
        double[] queueShare = new double[nRes];
        double[] limited = new double[nRes];
        boolean[] idle = new boolean[queueOf.length];
        for (int q = 0; q < queues; q++) {
            for (int p = 0; p < nRes; p++) {
                queueShare[p] = weightSum[p] > 0 ? initial[p] * weight[q] / weightSum[p] : 0.0;
            }
            for (int[] group : groups(state, queueOf, q)) {
                for (int p = 0; p < nRes; p++) {
                    limited[p] = Math.min(queueShare[p], residual[p]);
                }
                double[] before = limited.clone();
                if (!share(state, group, limited, rate, sharing)) {
                    for (int c : group) {
                        idle[c] = true;
                    }
                }
                for (int p = 0; p < nRes; p++) {
                    double used = before[p] - limited[p];
                    if (used > 0) {
                        queueShare[p] = Math.max(0.0, queueShare[p] - used);
                        residual[p] = Math.max(0.0, residual[p] - used);
                    }
                }
            }
        }
        return idle;
    }

    /** Shares the residual among a tie group's flows; returns whether any of them got a rate. */
    private static boolean share(ClusterState state, int[] coflowsOfGroup, double[] residual, double[] rate,
            GroupSharing sharing) {
        if (blocked(state, coflowsOfGroup, residual)) {
            return false;
        }
        int[] flows = flowsOf(state, coflowsOfGroup);
        if (sharing == GroupSharing.MAX_MIN) {
            return MaxMin.fill(state, flows, residual, null, rate) > 0;
        }
        return OneShotFairShare.apply(state, flows, residual, rate) > 0;
    }

    /**
     * Whether every coflow of the group is wide and has all its source hosts' up ports, or all its destination hosts'
     * down ports, spent. Then no flow of the group can get a rate — both sharings give a flow nothing unless each of
     * its resources, its two host ports among them, has capacity left — so the group is skipped without the sharing's
     * pass over its flows. Under strict priority this is the common case for the wide coflows of the lower queues
     * (about half of the flows fai's allocations looked at on the FB trace); the check reads a coflow's hosts, which
     * the state keeps for the coflow's life, so it costs a few ports per coflow and nothing as flows finish.
     */
    private static boolean blocked(ClusterState state, int[] coflowsOfGroup, double[] residual) {
        Network net = state.network();
        double eps = net.rateEpsilon();
        for (int c : coflowsOfGroup) {
            if (state.unfinishedFlowsOf(c).length < WIDE) {
                return false;
            }
            if (!spent(state.sourceHostsOf(c), net, true, residual, eps)
                    && !spent(state.destinationHostsOf(c), net, false, residual, eps)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the up ports ({@code upPorts}) or the down ports of all {@code hosts} have at most {@code eps} left. */
    private static boolean spent(int[] hosts, Network net, boolean upPorts, double[] residual, double eps) {
        for (int h : hosts) {
            if (residual[upPorts ? net.up(h) : net.down(h)] > eps) {
                return false;
            }
        }
        return true;
    }

    /** The unfinished flows of a tie group; for the usual group of one coflow, the state's own list (only read). */
    static int[] flowsOf(ClusterState state, int[] coflowsOfGroup) {
        if (coflowsOfGroup.length == 1) {
            return state.unfinishedFlowsOf(coflowsOfGroup[0]);
        }
        int n = 0;
        for (int c : coflowsOfGroup) {
            n += state.unfinishedFlowsOf(c).length;
        }
        int[] flows = new int[n];
        int k = 0;
        for (int c : coflowsOfGroup) {
            for (int f : state.unfinishedFlowsOf(c)) {
                flows[k++] = f;
            }
        }
        return flows;
    }

    /**
     * The tie groups of queue {@code q} in FIFO order: runs of coflows with an equal arrival time
     * (coflow indices are already ordered by (arrival, id)).
     */
    static int[][] groups(ClusterState state, int[] queueOf, int q) {
        int n = 0;
        for (int c = 0; c < queueOf.length; c++) {
            if (queueOf[c] == q) {
                n++;
            }
        }
        int[] members = new int[n];
        int k = 0;
        for (int c = 0; c < queueOf.length; c++) {
            if (queueOf[c] == q) {
                members[k++] = c;
            }
        }
        int groups = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || state.coflow(members[i]).arrival() != state.coflow(members[i - 1]).arrival()) {
                groups++;
            }
        }
        int[][] out = new int[groups][];
        int g = -1;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            boolean boundary = i == n || i == 0
                    || state.coflow(members[i]).arrival() != state.coflow(members[i - 1]).arrival();
            if (boundary && i > 0) {
                out[g] = Arrays.copyOfRange(members, start, i);
            }
            if (boundary && i < n) {
                g++;
                start = i;
            }
        }
        return out;
    }
}
