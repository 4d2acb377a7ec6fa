package io.courier.scheduler.skipl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import org.junit.jupiter.api.Test;

/** Alg. 3 EstimateCCT and Alg. 1 RescheduleCoflows of SCHEDULERS.md §8. */
class RescheduleCoflowsTest {
    private static final double EPS = 1e-9;
    private static final int H1 = 0;
    private static final int H2 = 1;
    private static final int H3 = 2;

    /** Ports of capacity 100 on h1, h2, h3 and one extra link l1 (capacity 100). */
    private static Network network() {
        return Network.builder().host("h1", 100, 100).host("h2", 100, 100).host("h3", 100, 100)
                .link("l1", 100).build();
    }

    /** Port capacities, with {@code B(l1)} for the link. */
    private static double[] available(Network n, double l1) {
        double[] a = n.capacities();
        a[n.link(0)] = l1;
        return a;
    }

    private static Flow flow(long id, long coflow, int src, int dst, double rem, int... path) {
        return Flow.builder(FlowId.of(id), CoflowId.of(coflow), src, dst).size(rem).path(path).build();
    }

    /** T-SKIPL-1's coflow: f1 h1→h2 rem 100 over l1, f2 h1→h3 rem 50. */
    private static ClusterState tSkipl1() {
        return ClusterState.builder(network()).coflow(Coflow.of(1, 0))
                .flow(flow(1, 1, H1, H2, 100, 0)).flow(flow(2, 1, H1, H3, 50)).build();
    }

    @Test
    void tSkipl1EstimateCct() {
        ClusterState s = tSkipl1();
        double[] b = available(s.network(), 50);
        // Loads: up(h1) 150/100 = 1.5, down(h2) 1.0, l1 100/50 = 2.0, down(h3) 0.5.
        assertEquals(2.0, RescheduleCoflows.estimateCct(s, 0, b), EPS);
        double[] rate = new double[2];
        assertEquals(2.0, RescheduleCoflows.allocate(s, 0, b, rate), EPS);
        assertEquals(50, rate[0], EPS);
        assertEquals(25, rate[1], EPS);
        // A = r: what is left for later coflows and the conservation step.
        assertEquals(25, b[s.network().up(H1)], EPS);
        assertEquals(0, b[s.network().link(0)], EPS);
        // Without the congestion the host port is the bottleneck: 150/100.
        assertEquals(1.5, RescheduleCoflows.estimateCct(s, 0, available(s.network(), 100)), EPS);
    }

    @Test
    void tSkipl1AggregatedNotPerFlow() {
        // Two 100-unit flows from h1: τ = 200/100 = 2, not the literal per-flow 100/100 = 1.
        ClusterState s = ClusterState.builder(network()).coflow(Coflow.of(2, 0))
                .flow(flow(3, 2, H1, H2, 100)).flow(flow(4, 2, H1, H3, 100)).build();
        assertEquals(2.0, RescheduleCoflows.estimateCct(s, 0, available(s.network(), 100)), EPS);
        double[] rate = RescheduleCoflows.apply(s, available(s.network(), 100));
        assertEquals(50, rate[0], EPS);
        assertEquals(50, rate[1], EPS);
    }

    @Test
    void conservationTopsUpAfterTheMaddStep() {
        ClusterState s = tSkipl1();
        double[] b = available(s.network(), 50);
        double[] rate = RescheduleCoflows.apply(s, b);
        // f1 is held at B(l1) = 50; f2 takes what is left on up(h1).
        assertEquals(50, rate[0], EPS);
        assertEquals(50, rate[1], EPS);
        assertEquals(50, b[s.network().link(0)], 0.0); // the caller's array is not modified
    }

    @Test
    void sptfOnEstimatedCctWithArrivalTies() {
        // C1 = T-SKIPL-1's coflow (τ 2 with B(l1) = 50), C2 = one 150-unit flow h2→h3 (τ 1.5), C3 like C2
        // but arrived later: order C2, C3, C1; with B(l1) = 100, C1 (τ 1.5) ties C2 and C3 and arrived first.
        ClusterState s = ClusterState.builder(network())
                .coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0)).coflow(Coflow.of(3, 1))
                .flow(flow(1, 1, H1, H2, 100, 0)).flow(flow(2, 1, H1, H3, 50))
                .flow(flow(3, 2, H2, H3, 150)).flow(flow(4, 3, H3, H1, 150)).build();
        assertArrayEquals(new int[] {1, 2, 0}, RescheduleCoflows.order(s, available(s.network(), 50)));
        assertArrayEquals(new int[] {0, 1, 2}, RescheduleCoflows.order(s, available(s.network(), 100)));
    }

    @Test
    void aCoflowWithoutRoomIsPausedAndAllRatesFit() {
        // C1 (τ 1.5 on up(h1)) goes first and fills up(h1); C2, also from h1, gets nothing.
        ClusterState s = ClusterState.builder(network()).coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .flow(flow(1, 1, H1, H2, 150)).flow(flow(2, 2, H1, H3, 200)).build();
        double[] rate = RescheduleCoflows.apply(s, available(s.network(), 100));
        assertEquals(100, rate[0], EPS);
        assertEquals(0, rate[1], 0.0);
    }

    /** Without extra links SkipL is SEBF-ordered MADD with arrival-order top-up (spec §8): fixture V1. */
    @Test
    void bigSwitchReducesToSebfMadd() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v1(), SkipLScheduler.withDefaults());
        assertEquals(1.0, r.cct("B"), EPS);
        assertEquals(4.0, r.cct("A"), EPS);
        // t = 0: B alone on s1 (τ 1), A's s2 flow topped up by conservation, A's s1 flow paused.
        assertEquals(1.0, r.rateAt(0, "B1"), EPS);
        assertEquals(0.0, r.rateAt(0, "A1"), EPS);
        assertEquals(1.0, r.rateAt(0, "A2"), EPS);
        // t = 1: MADD over A's remaining 2 + 1 on r1: 2/3 and 1/3.
        assertEquals(2.0 / 3, r.rateAt(1, "A1"), EPS);
        assertEquals(1.0 / 3, r.rateAt(1, "A2"), EPS);
    }
}
