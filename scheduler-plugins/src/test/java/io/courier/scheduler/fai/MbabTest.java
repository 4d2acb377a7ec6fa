package io.courier.scheduler.fai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import org.junit.jupiter.api.Test;

/** T-FAI-2 (SCHEDULERS.md §6): step 2 as a pure function of bytes sent, bandwidths and residuals. */
class MbabTest {
    private static final double EPS = 1e-9;
    private static final int A = 0, B = 1, X = 2, Y = 3; // hosts; g1: a→x, g2: b→y
    private static final Mbab MBAB = new Mbab(1e-6, 1e-12);

    /** Coflow X of T-FAI-2 with sizes hidden (MBAB must not need them). */
    private static ClusterState coflowX(double sent1, double sent2) {
        return ClusterState.builder(Network.uniform(4, 1.0))
                .coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), A, X).sent(sent1).size(100).build())
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(1), B, Y).sent(sent2).size(100).build())
                .build().withSizesHidden();
    }

    private static double[] residual(ClusterState s) {
        double[] r = new double[s.network().resourceCount()];
        java.util.Arrays.fill(r, 0.25);
        return r;
    }

    @Test
    void doesNotFireWhenTheLeastProgressedFlowIsNotTheSlowest() {
        ClusterState s = coflowX(5, 10);
        double[] bw = {1.0, 0.5};
        double[] res = residual(s);
        double[] before = res.clone();
        assertFalse(MBAB.equalize(s, 0, bw, res));
        assertArrayEquals(new double[] {1.0, 0.5}, bw, 0.0);
        assertArrayEquals(before, res, 0.0);
    }

    @Test
    void equalBytesMakeTheSlowestFlowTheBottleneck() {
        ClusterState s = coflowX(7, 7);
        double[] bw = {1.0, 0.5};
        double[] res = residual(s);
        double[] expected = res.clone();
        expected[s.network().up(A)] += 0.5;
        expected[s.network().down(X)] += 0.5;
        assertTrue(MBAB.equalize(s, 0, bw, res));
        assertArrayEquals(new double[] {0.5, 0.5}, bw, EPS);
        assertArrayEquals(expected, res, EPS);
    }

    @Test
    void bytesWithinToleranceCountAsEqual() {
        ClusterState s = coflowX(7, 7 + 7e-6 * 0.9);
        double[] bw = {1.0, 0.5};
        assertTrue(MBAB.equalize(s, 0, bw, residual(s)));
        assertArrayEquals(new double[] {0.5, 0.5}, bw, EPS);
    }

    /** The spec's literal reading: a blocked least-progressed flow pauses its whole coflow. */
    @Test
    void blockedBottleneckPausesTheCoflow() {
        ClusterState s = coflowX(3, 3);
        double[] bw = {0.0, 0.75};
        double[] res = residual(s);
        double[] expected = res.clone();
        expected[s.network().up(B)] += 0.75;
        expected[s.network().down(Y)] += 0.75;
        assertTrue(MBAB.equalize(s, 0, bw, res));
        assertArrayEquals(new double[] {0.0, 0.0}, bw, 0.0);
        assertArrayEquals(expected, res, EPS);
    }
    /** A flow across an extra link gives its excess back to the link too, not only to its two host ports. */
    @Test
    void excessGoesBackToEveryResourceOfTheFlowIncludingExtraLinks() {
        Network net = Network.builder().host("a", 1, 1).host("b", 1, 1).host("x", 1, 1).host("y", 1, 1)
                .link("L", 1).build();
        ClusterState s = ClusterState.builder(net)
                .coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), A, X).sent(7).size(100).path(0).build())
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(1), B, Y).sent(7).size(100).build())
                .build();
        double[] bw = {1.0, 0.5};
        double[] res = residual(s);
        double[] expected = res.clone();
        expected[net.up(A)] += 0.5;
        expected[net.down(X)] += 0.5;
        expected[net.link(0)] += 0.5;
        assertTrue(MBAB.equalize(s, 0, bw, res));
        assertArrayEquals(new double[] {0.5, 0.5}, bw, EPS);
        assertArrayEquals(expected, res, EPS);
    }

    /** Every flow at one rate (a paused coflow, or one already equalised): a bottleneck, and nothing changes. */
    @Test
    void aCoflowAtOneRateIsItsOwnBottleneck() {
        for (double rate : new double[] {0.0, 0.5}) {
            ClusterState s = coflowX(3, 9);
            double[] bw = {rate, rate};
            double[] res = residual(s);
            double[] before = res.clone();
            assertTrue(MBAB.equalize(s, 0, bw, res));
            assertArrayEquals(new double[] {rate, rate}, bw, 0.0);
            assertArrayEquals(before, res, 0.0);
        }
    }
}
