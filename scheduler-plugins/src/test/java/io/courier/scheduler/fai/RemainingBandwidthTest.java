package io.courier.scheduler.fai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import org.junit.jupiter.api.Test;

/** T-FAI-3 (SCHEDULERS.md §6): step 3 divides a port's residual among the coflow's flows on it. */
class RemainingBandwidthTest {
    private static final double EPS = 1e-9;
    private static final int S1 = 0, D1 = 1, D2 = 2;

    /** Coflow Z: z1 s1→d1, z2 s1→d2, sizes hidden. */
    private static ClusterState coflowZ() {
        return ClusterState.builder(Network.uniform(3, 1.0))
                .coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), S1, D1).sent(1).size(10).build())
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(1), S1, D2).sent(1).size(10).build())
                .build().withSizesHidden();
    }

    @Test
    void sharedPortIsDividedByTheFlowsOnIt() {
        ClusterState s = coflowZ();
        Network n = s.network();
        double[] res = new double[n.resourceCount()];
        res[n.up(S1)] = 0.6;
        res[n.down(D1)] = 0.8;
        res[n.down(D2)] = 0.8;
        double[] bw = {0.2, 0.2};
        double left = new RemainingBandwidth(n.resourceCount()).reallocate(s, 0, bw, res);
        assertEquals(0.3, left, EPS);
        assertArrayEquals(new double[] {0.5, 0.5}, bw, EPS);
        assertEquals(0.0, res[n.up(S1)], EPS);
        assertEquals(0.5, res[n.down(D1)], EPS);
        assertEquals(0.5, res[n.down(D2)], EPS);
    }

    /** Reset per coflow: a coflow without slack gets nothing, and does not stop the next one from gaining. */
    @Test
    void slackIsComputedPerCoflow() {
        ClusterState s = ClusterState.builder(Network.uniform(4, 1.0))
                .coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 1))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).size(5).build())
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(2), 2, 3).size(5).build())
                .build().withSizesHidden();
        Network n = s.network();
        double[] res = new double[n.resourceCount()];
        res[n.up(0)] = 0.0;
        res[n.down(1)] = 0.4;
        res[n.up(2)] = 0.7;
        res[n.down(3)] = 0.3;
        double[] bw = {0.6, 0.2};
        RemainingBandwidth step3 = new RemainingBandwidth(n.resourceCount());
        assertEquals(0.0, step3.reallocate(s, 0, bw, res), 0.0);
        assertEquals(0.3, step3.reallocate(s, 1, bw, res), EPS);
        assertArrayEquals(new double[] {0.6, 0.5}, bw, EPS);
        assertEquals(0.4, res[n.up(2)], EPS);
        assertEquals(0.0, res[n.down(3)], EPS);
    }

    /**
     * On a network without extra links the per-port shortcut gives bit for bit what the flow-by-flow pass gives:
     * random coflows, residuals partly spent, coflow after coflow on the same residuals.
     */
    @Test
    void perPortSharesAreTheFlowByFlowShares() {
        java.util.Random rnd = new java.util.Random(8);
        for (int trial = 0; trial < 300; trial++) {
            int hosts = 2 + rnd.nextInt(10);
            ClusterState.Builder b = ClusterState.builder(Network.uniform(hosts, 1.0)).now(1.0);
            int coflows = 1 + rnd.nextInt(5);
            long id = 1;
            for (int c = 0; c < coflows; c++) {
                b.coflow(Coflow.of(c + 1, c));
                for (int k = 0, n = 1 + rnd.nextInt(30); k < n; k++) {
                    b.flow(Flow.builder(FlowId.of(id++), CoflowId.of(c + 1), rnd.nextInt(hosts), rnd.nextInt(hosts))
                            .size(10).sent(rnd.nextInt(10)).finished(rnd.nextInt(6) == 0).build());
                }
            }
            ClusterState s = b.build();
            double[] residual = s.residualCapacities(false);
            for (int p = 0; p < residual.length; p++) {
                residual[p] = rnd.nextInt(4) == 0 ? 0.0 : rnd.nextDouble();
            }
            double[] residualB = residual.clone();
            double[] bw = new double[s.flowCount()];
            double[] bwB = new double[s.flowCount()];
            RemainingBandwidth flowByFlow = new RemainingBandwidth(residual.length);
            for (int c = 0; c < s.coflowCount(); c++) {
                if (s.unfinishedFlowsOf(c).length == 0) {
                    continue; // reallocate answers 0 before either pass
                }
                double a = flowByFlow.reallocateFlowByFlow(s, s.unfinishedFlowsOf(c), bw, residual);
                double p = RemainingBandwidth.reallocateOnPorts(s, c, s.unfinishedFlowsOf(c), bwB, residualB);
                assertEquals(a, p, 0.0, "trial " + trial + ", coflow " + c);
                assertArrayEquals(residual, residualB, 0.0, "trial " + trial + ", coflow " + c);
                assertArrayEquals(bw, bwB, 0.0, "trial " + trial + ", coflow " + c);
            }
        }
    }
}
