package io.courier.scheduler.primitives;

import static io.courier.scheduler.primitives.Hand.EPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.HiddenInformationException;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import org.junit.jupiter.api.Test;

/** P2 Γ (SCHEDULERS.md §0.5) on the spec's cases: T-VARYS-1, T-SKIPL-1 and the +∞ rule. */
class BottleneckTest {

    /** T-VARYS-1 at t = 0 with full capacities: Γ_A = 4 (down(r1) carries 4), Γ_B = 1. */
    @Test
    void tVarys1KeysAtTimeZero() {
        Hand h = Hand.of(Fixtures.v1());
        assertEquals(4.0, Bottleneck.gamma(h.state(), h.coflow("A"), h.fullCapacity()), EPS);
        assertEquals(1.0, Bottleneck.gamma(h.state(), h.coflow("B"), h.fullCapacity()), EPS);
    }

    /** T-VARYS-1 at t = 1 (B done, A2 has sent 1): Γ_A = max(s1: 2, s2: 1, r1: 3) = 3. */
    @Test
    void tVarys1KeyOnRemainingBytes() {
        Scenario v1 = Fixtures.v1();
        ClusterState s = Snapshot.of(v1).now(1).active("A").sent("A2", 1).build();
        Hand h = new Hand(v1, s);
        assertEquals(3.0, Bottleneck.gamma(s, h.coflow("A"), h.fullCapacity()), EPS);
    }

    /**
     * T-VARYS-1 at t = 0 after B1 took up(s1): Γ_A on the residual is +∞ (some needed port is full), even
     * when the residual is a rounding crumb below EPS_RATE; a full port A does not use does not matter.
     */
    @Test
    void gammaIsInfiniteWhenANeededResourceIsFull() {
        Hand h = Hand.of(Fixtures.v1());
        double[] residual = h.fullCapacity();
        residual[h.up("s1")] = 0.0;
        residual[h.down("r2")] = 0.0;
        assertEquals(Double.POSITIVE_INFINITY, Bottleneck.gamma(h.state(), h.coflow("A"), residual), 0.0);
        residual[h.up("s1")] = 1e-10;
        assertEquals(Double.POSITIVE_INFINITY, Bottleneck.gamma(h.state(), h.coflow("A"), residual), 0.0);
        residual[h.up("s1")] = 1.0;
        assertEquals(4.0, Bottleneck.gamma(h.state(), h.coflow("A"), residual), EPS);
    }

    /**
     * T-SKIPL-1: ports of capacity 100; f1 h1→h2 (100 left) crosses l1 with B(l1) = 50, f2 h1→h3 (50 left).
     * Loads: up(h1) 150 → 1.5, down(h2) 100 → 1.0, l1 100/50 → 2.0, down(h3) 50 → 0.5; Γ = 2.0.
     * A coflow of two 100-unit flows from h1 aggregates to 200/100 = 2, not the per-flow 1.
     */
    @Test
    void tSkipl1GammaWithALinkEstimateAndAggregatedPorts() {
        Scenario sc = Scenario.withCapacity(100).link("l1", 100)
                .coflow("C", 0).flowVia("f1", "h1", "h2", 100, "l1").flow("f2", "h1", "h3", 50)
                .coflow("D", 0).flow("g1", "h1", "h4", 100).flow("g2", "h1", "h5", 100)
                .build();
        Hand h = Hand.of(sc);
        double[] residual = h.fullCapacity();
        residual[h.link(0)] = 50;
        assertEquals(2.0, Bottleneck.gamma(h.state(), h.coflow("C"), residual), EPS);
        assertEquals(2.0, Bottleneck.gamma(h.state(), h.coflow("D"), residual), EPS);
    }

    /** Finished flows carry nothing: a coflow with nothing left has Γ = 0, even on full resources. */
    @Test
    void finishedFlowsDoNotCount() {
        Scenario v1 = Fixtures.v1();
        ClusterState s = Snapshot.of(v1).finished("A1").finished("A2").build();
        Hand h = new Hand(v1, s);
        int[] all = s.flowsOf(s.indexOf(v1.coflow("A")));
        double[] residual = h.fullCapacity();
        residual[h.down("r1")] = 0;
        assertEquals(0.0, Bottleneck.gamma(s, all, residual), 0.0);
        ClusterState half = Snapshot.of(v1).finished("A1").build();
        assertEquals(2.0, Bottleneck.gamma(half, half.flowsOf(half.indexOf(v1.coflow("A"))),
                half.residualCapacities(false)), EPS);
    }

    /** The byte-array form: the caller chooses the bytes (e.g. total sizes for a static key). */
    @Test
    void explicitBytes() {
        Hand h = Hand.of(Fixtures.v1());
        int[] a = h.coflow("A");
        assertEquals(6.0, Bottleneck.gamma(h.state(), a, new double[] {5, 1}, h.fullCapacity()), EPS);
        assertEquals(0.0, Bottleneck.gamma(h.state(), a, new double[] {0, 0}, h.fullCapacity()), 0.0);
    }

    @Test
    void gammaNeedsSizes() {
        Hand h = Hand.of(Fixtures.v1());
        assertThrows(HiddenInformationException.class,
                () -> Bottleneck.gamma(h.state().withSizesHidden(), h.coflow("A"), h.fullCapacity()));
    }

    /**
     * The sparse path (few flows on a large network: no arrays as long as the resource table) returns exactly the
     * dense path's Γ, +∞ and 0 cases included, over random byte counts and residuals on 300 hosts.
     */
    @Test
    void sparseAndDensePathsAgreeBitForBit() {
        Scenario.Builder b = Scenario.withCapacity(100).coflow("C", 0).flow("h0", "h1", 50).flow("h0", "h2", 70)
                .flow("h3", "h1", 20).coflow("Rest", 0);
        for (int i = 4; i < 300; i++) {
            b.flow("h" + i, "h" + (i % 7), 10);
        }
        Hand h = Hand.of(b.build());
        int[] c = h.coflow("C");
        java.util.Random rnd = new java.util.Random(7);
        int sparse = 0;
        for (int round = 0; round < 500; round++) {
            double[] residual = h.fullCapacity();
            for (int p = 0; p < residual.length; p++) {
                residual[p] = round % 50 == 0 && p % 3 == 0 ? 0.0 : 1 + rnd.nextDouble() * 99;
            }
            double[] bytes = new double[c.length];
            for (int k = 0; k < c.length; k++) {
                bytes[k] = rnd.nextInt(4) == 0 ? 0.0 : rnd.nextDouble() * 1e9;
            }
            double eps = h.state().network().rateEpsilon();
            double dense = Bottleneck.denseGamma(h.state(), c, bytes, residual, eps);
            assertEquals(dense, Bottleneck.gamma(h.state(), c, bytes, residual), 0.0, "round " + round);
            int entries = 0;
            for (int k = 0; k < c.length; k++) {
                entries += bytes[k] > 0 ? h.state().resourcesOf(c[k]).length : 0;
            }
            if (entries > 0) {
                sparse++;
                assertEquals(dense, Bottleneck.sparseGamma(h.state(), c, bytes, residual, entries, eps), 0.0,
                        "round " + round);
            }
        }
        assertEquals(true, sparse > 400, "the sparse path ran: " + sparse);
    }
}
