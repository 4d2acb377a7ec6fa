package io.courier.scheduler.iaoa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Alg. 4 on random big-switch states: feasible, work-conserving, and the first coflow gets its full share. */
class GreedyCoflowAllocationProperties {

    @Property(tries = 300)
    void feasibleMaximalAndPriorityFirst(@ForAll @IntRange(min = 2, max = 6) int hosts,
            @ForAll @IntRange(min = 1, max = 5) int coflows, @ForAll long seed) {
        Random rnd = new Random(seed);
        Network.Builder nb = Network.builder();
        for (int h = 0; h < hosts; h++) {
            nb.host("h" + h, 0.5 + rnd.nextInt(4), 0.5 + rnd.nextInt(4));
        }
        Network net = nb.build();
        ClusterState.Builder b = ClusterState.builder(net);
        long flowId = 1;
        for (int c = 1; c <= coflows; c++) {
            b.coflow(new Coflow(CoflowId.of(c), rnd.nextInt(3), 1 + rnd.nextInt(5)));
            int n = 1 + rnd.nextInt(4);
            for (int k = 0; k < n; k++) {
                b.flow(Flow.builder(FlowId.of(flowId++), CoflowId.of(c), rnd.nextInt(hosts), rnd.nextInt(hosts))
                        .sent(rnd.nextInt(10)).finished(rnd.nextInt(5) == 0).build());
            }
        }
        ClusterState s = b.build();
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
            int[] n = new int[net.resourceCount()];
            for (int f : flows) {
                for (int p : s.resourcesOf(f)) {
                    n[p]++;
                }
            }
            double share = Double.POSITIVE_INFINITY;
            for (int f : flows) {
                for (int p : s.resourcesOf(f)) {
                    share = Math.min(share, net.capacity(p) / n[p]);
                }
            }
            for (int f : flows) {
                assertTrue(rate[f] >= share * (1 - 1e-9), s.flow(f) + " of the top coflow got " + rate[f] + " < " + share);
            }
        }
    }
}
