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
}
