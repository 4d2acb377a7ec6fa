package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Network;

/**
 * {@link MaxMin}'s filling on a big switch without demand caps, done over host pairs instead of flows: every flow of
 * one (source, destination) pair uses the same two ports, so the flows of a pair always freeze together, at the level
 * of whichever of the two ports saturates first. The per-flow filling walks each saturated port's flows through an
 * adjacency list it builds per call; here a saturated port scans its row or column of a hosts × hosts table of
 * counts, so a call costs two plain passes over the flows plus at most {@code 2·H²} table reads. Used where the
 * table has at most four cells per flow ({@link #applies}; on 150 hosts with random pairs the two fillings cost the
 * same at about 5,000 flows, and this one a third at 50,000): E2's classes and IAOA's leftover filling over tens of
 * thousands of flows.
 *
 * <p>Bit-identical to the per-flow filling, not merely close: it makes the same heap operations on the same values.
 * A port's frozen use is the sum of the levels of the flows frozen on it, added one flow at a time as before; within
 * one saturation every flow adds the same level, so adding it {@code count} times for a pair gives the same bits as
 * the per-flow order. Rates and residuals are written in the order of {@code flows}, as before. Stateless; a call
 * uses only its own arrays.
 */
final class HostPairFilling {
    private HostPairFilling() {
    }

    /** Whether {@link #fill} can replace the per-flow filling of {@code flowCount} flows on {@code net}. */
    static boolean applies(Network net, int flowCount) {
        long hosts = net.hostCount();
        return net.linkCount() == 0 && hosts * hosts <= 4L * flowCount;
    }

    /** {@link MaxMin#fill} with {@code demand == null}, on a network for which {@link #applies} holds. */
    static int fill(ClusterState state, int[] flows, double[] residual, double[] rate) {
        Network net = state.network();
        int hosts = net.hostCount();
        double eps = net.rateEpsilon();
        int nRes = residual.length;
        // A flow takes part only if both its ports have capacity left when the call starts (the final pass lowers
        // the residuals, so the test is taken once, here).
        boolean[] open = new boolean[nRes];
        for (int p = 0; p < nRes; p++) {
            open[p] = residual[p] > eps;
        }
        int[] pairFlows = new int[hosts * hosts];    // unfrozen flows of pair (s, d) at s * hosts + d
        int[] unfrozen = new int[nRes];
        int[] pairOf = new int[flows.length];         // the pair of flows[k], -1 if it takes no part
        int remaining = 0;
        for (int k = 0; k < flows.length; k++) {
            int s = state.src(flows[k]);
            int d = state.dst(flows[k]);
            int up = net.up(s);
            int down = net.down(d);
            if (open[up] && open[down]) {
                pairOf[k] = s * hosts + d;
                pairFlows[pairOf[k]]++;
                unfrozen[up]++;
                unfrozen[down]++;
                remaining++;
            } else {
                pairOf[k] = -1;
            }
        }
        if (remaining == 0) {
            return 0;
        }
        double[] pairLevel = new double[hosts * hosts];
        double[] frozenUse = new double[nRes];
        LevelHeap events = new LevelHeap(nRes);
        for (int p = 0; p < nRes; p++) {
            if (unfrozen[p] > 0) {
                events.add(residual[p] / unfrozen[p], p);
            }
        }
        while (remaining > 0) {
            int resP = events.nextSaturation(residual, frozenUse, unfrozen);
            if (resP < 0) {
                break; // cannot happen: every counted flow has two ports in the heap
            }
            double level = Math.max(0.0, events.peekLevel());
            events.poll();
            // The saturated port's own frozen use is not read again (its unfrozen count drops to 0), so only the
            // other port of each pair is charged.
            if (resP < hosts) {                       // Network's layout: up(h) = h, down(h) = H + h
                int row = resP * hosts;
                for (int d = 0; d < hosts; d++) {
                    int count = pairFlows[row + d];
                    if (count > 0) {
                        freeze(row + d, count, net.down(d), level, pairFlows, pairLevel, frozenUse, unfrozen);
                        remaining -= count;
                    }
                }
            } else {
                int d = resP - hosts;
                for (int s = 0; s < hosts; s++) {
                    int count = pairFlows[s * hosts + d];
                    if (count > 0) {
                        freeze(s * hosts + d, count, net.up(s), level, pairFlows, pairLevel, frozenUse, unfrozen);
                        remaining -= count;
                    }
                }
            }
            unfrozen[resP] = 0;
        }
        int given = 0;
        for (int k = 0; k < flows.length; k++) {
            double x = pairOf[k] < 0 ? 0.0 : pairLevel[pairOf[k]];
            if (x > 0) {
                int f = flows[k];
                int up = net.up(state.src(f));
                int down = net.down(state.dst(f));
                given++;
                rate[f] += x;
                residual[up] = Math.max(0.0, residual[up] - x);
                residual[down] = Math.max(0.0, residual[down] - x);
            }
        }
        return given;
    }

    /** Freezes the {@code count} flows of pair {@code pair} at {@code level}, charging port {@code other}. */
    private static void freeze(int pair, int count, int other, double level, int[] pairFlows, double[] pairLevel,
            double[] frozenUse, int[] unfrozen) {
        pairFlows[pair] = 0;
        pairLevel[pair] = level;
        double use = frozenUse[other];
        for (int k = 0; k < count; k++) {
            use += level;
        }
        frozenUse[other] = use;
        unfrozen[other] -= count;
    }
}
