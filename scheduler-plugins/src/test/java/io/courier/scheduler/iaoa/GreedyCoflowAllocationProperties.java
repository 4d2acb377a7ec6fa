package io.courier.scheduler.iaoa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.PortSums;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Alg. 4 on random big-switch states: feasible, work-conserving, and the first coflow gets its full share. */
class GreedyCoflowAllocationProperties {

    @Property(tries = 300)
    void feasibleMaximalAndPriorityFirst(@ForAll @IntRange(min = 2, max = 6) int hosts,
            @ForAll @IntRange(min = 1, max = 5) int coflows, @ForAll long seed) {
        ClusterState s = randomState(new Random(seed), hosts, coflows, 4, false);
        Network net = s.network();
        int[] order = AlphaOrder.order(s, AlphaOrder.sentAlphas(s));
        double[] rate = GreedyCoflowAllocation.allocate(s, order);

        double[] used = new double[net.resourceCount()];
        for (int f = 0; f < s.flowCount(); f++) {
            if (s.flow(f).finished()) {
                assertEquals(0.0, rate[f], 0.0, "finished flow " + s.flow(f) + " got a rate");
            }
            for (int p : s.resourcesOf(f)) {
                used[p] += rate[f];
            }
        }
        for (int p = 0; p < used.length; p++) {
            assertTrue(used[p] <= net.capacity(p) * (1 + 1e-9), net.resourceName(p) + " overbooked: " + used[p]);
        }
        for (int f : s.unfinishedFlows()) {
            boolean saturated = false;
            for (int p : s.resourcesOf(f)) {
                saturated |= net.capacity(p) - used[p] <= 1e-9 * net.maxCapacity();
            }
            assertTrue(saturated, "unfinished " + s.flow(f) + " could still grow: not work-conserving");
        }
        // The top coflow's flows all get at least min_p cap(p)/n_p.
        int top = order[0];
        int[] flows = s.unfinishedFlowsOf(top);
        if (flows.length > 0) {
            double share = commonShare(s, flows, net.capacities(), flowsPerResource(s, flows));
            for (int f : flows) {
                assertTrue(rate[f] >= share * (1 - 1e-9), s.flow(f) + " of the top coflow got " + rate[f] + " < " + share);
            }
        }
    }

    /**
     * The greedy step equals the spec's loop (Alg. 4 lines 5-10, counting every coflow's flows per resource first) to
     * the last bit, on states whose later coflows often find a resource already spent (few hosts, many flows).
     */
    @Property(tries = 300)
    void prioritizedIsTheSpecsLoop(@ForAll @IntRange(min = 2, max = 5) int hosts,
            @ForAll @IntRange(min = 1, max = 8) int coflows, @ForAll long seed) {
        Random rnd = new Random(seed);
        ClusterState s = randomState(rnd, hosts, coflows, 12, true);
        int[] order = AlphaOrder.order(s, AlphaOrder.sentAlphas(s));
        double[] residual = s.residualCapacities(false);
        double[] rate = GreedyCoflowAllocation.prioritized(s, order, residual);

        double eps = s.network().rateEpsilon();
        double[] refResidual = s.residualCapacities(false);
        double[] refRate = new double[s.flowCount()];
        for (int c : order) {
            int[] flows = s.unfinishedFlowsOf(c);
            if (flows.length == 0) {
                continue;
            }
            int[] n = flowsPerResource(s, flows);
            double r = commonShare(s, flows, refResidual, n);
            if (r <= eps) {
                r = 0.0;
            }
            for (int f : flows) {
                refRate[f] = r;
            }
            for (int p = 0; p < refResidual.length; p++) {
                if (n[p] > 0) {
                    refResidual[p] = Math.max(0.0, refResidual[p] - r * n[p]);
                }
            }
        }
        assertArrayEquals(refRate, rate, 0.0);
        assertArrayEquals(refResidual, residual, 0.0);
    }

    /**
     * {@link ClusterState#sentPortSums} holds each coflow's dense per-port sums of bytes sent (finished flows included),
     * summed in flow order, and α is their largest over the weight.
     */
    @Property(tries = 300)
    void sentPortSumsAreTheDenseSums(@ForAll @IntRange(min = 2, max = 6) int hosts,
            @ForAll @IntRange(min = 1, max = 6) int coflows, @ForAll long seed) {
        ClusterState s = randomState(new Random(seed), hosts, coflows, 12, true);
        double[] alpha = AlphaOrder.sentAlphas(s);
        for (int c = 0; c < s.coflowCount(); c++) {
            double[] dense = new double[2 * hosts];
            boolean[] touched = new boolean[2 * hosts];
            int touchedCount = 0;
            for (int f : s.flowsOf(c)) {
                int up = s.network().up(s.src(f));
                int down = s.network().down(s.dst(f));
                dense[up] += s.sent(f);
                dense[down] += s.sent(f);
                for (int p : new int[] {up, down}) {
                    touchedCount += touched[p] ? 0 : 1;
                    touched[p] = true;
                }
            }
            PortSums sums = s.sentPortSums(c);
            double[] sparse = new double[2 * hosts];
            int prev = -1;
            for (int k = 0; k < sums.size(); k++) {
                assertTrue(sums.port(k) > prev, "ports ascend");
                prev = sums.port(k);
                assertTrue(touched[prev], "only ports the coflow's flows touch");
                sparse[prev] = sums.sum(k);
            }
            assertEquals(touchedCount, sums.size(), "every port the coflow's flows touch");
            assertArrayEquals(dense, sparse, 0.0);
            double max = 0;
            for (double d : dense) {
                max = Math.max(max, d);
            }
            assertEquals(max, sums.max(), 0.0);
            assertEquals(max / s.coflow(c).weight(), alpha[c], 0.0);
            assertTrue(sums == s.sentPortSums(c), "computed once per state");
        }
    }

    /** {@code n_p}: how many of {@code flows} use each resource. */
    private static int[] flowsPerResource(ClusterState s, int[] flows) {
        int[] n = new int[s.network().resourceCount()];
        for (int f : flows) {
            for (int p : s.resourcesOf(f)) {
                n[p]++;
            }
        }
        return n;
    }

    /** {@code min_p available(p) / n_p} over the resources of {@code flows}: Alg. 4's common rate before EPS. */
    private static double commonShare(ClusterState s, int[] flows, double[] available, int[] n) {
        double share = Double.POSITIVE_INFINITY;
        for (int f : flows) {
            for (int p : s.resourcesOf(f)) {
                share = Math.min(share, available[p] / n[p]);
            }
        }
        return share;
    }

    /**
     * Small hosts of mixed capacities and coflows of 1 to {@code maxFlows} flows, some finished, with 0-9 bytes sent
     * (any fraction of 10 when {@code fractionalSent}).
     */
    private static ClusterState randomState(Random rnd, int hosts, int coflows, int maxFlows, boolean fractionalSent) {
        Network.Builder nb = Network.builder();
        for (int h = 0; h < hosts; h++) {
            nb.host("h" + h, 0.5 + rnd.nextInt(4), 0.5 + rnd.nextInt(4));
        }
        ClusterState.Builder b = ClusterState.builder(nb.build());
        long flowId = 1;
        for (int c = 1; c <= coflows; c++) {
            b.coflow(new Coflow(CoflowId.of(c), rnd.nextInt(3), 1 + rnd.nextInt(5)));
            int n = 1 + rnd.nextInt(maxFlows);
            for (int k = 0; k < n; k++) {
                int src = rnd.nextInt(hosts);
                int dst = rnd.nextInt(hosts);
                double sent = fractionalSent ? rnd.nextDouble() * 10 : rnd.nextInt(10);
                b.flow(Flow.builder(FlowId.of(flowId++), CoflowId.of(c), src, dst)
                        .sent(sent).finished(rnd.nextInt(5) == 0).build());
            }
        }
        return b.build();
    }
}
