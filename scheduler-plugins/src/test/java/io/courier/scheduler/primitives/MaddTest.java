package io.courier.scheduler.primitives;

import static io.courier.scheduler.primitives.Hand.EPS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import org.junit.jupiter.api.Test;

/** P3 MADD (SCHEDULERS.md §0.5) on T-VARYS-2 and T-SKIPL-1. */
class MaddTest {

    /** T-VARYS-2 at t = 2 (B done, A1 has sent 2): Γ_A = 2, so A1 = 2/2 = 1.0 and A2 = 1/2 = 0.5. */
    @Test
    void tVarys2MaddSlowsTheNonBottleneckFlow() {
        Scenario v2 = Fixtures.v2();
        ClusterState s = Snapshot.of(v2).now(2).active("A").sent("A1", 2).build();
        Hand h = new Hand(v2, s);
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        assertEquals(2.0, Madd.apply(s, h.coflow("A"), residual, rate), EPS);
        assertEquals(1.0, rate[h.flow("A1")], EPS);
        assertEquals(0.5, rate[h.flow("A2")], EPS);
        assertEquals(0.0, residual[h.up("s1")], EPS);
        assertEquals(0.0, residual[h.down("r1")], EPS);
        assertEquals(0.5, residual[h.up("s2")], EPS);
        assertEquals(0.5, residual[h.down("r2")], EPS);
    }

    /**
     * T-VARYS-2 at t = 0 in SEBF order: B first (Γ = 2, B1 = 2/2 = 1), then A finds down(r2) full: Γ = +∞
     * and MADD leaves rates and residual untouched.
     */
    @Test
    void tVarys2SkippedCoflowGetsNothing() {
        Hand h = Hand.of(Fixtures.v2());
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        assertEquals(2.0, Madd.apply(h.state(), h.coflow("B"), residual, rate), EPS);
        assertEquals(1.0, rate[h.flow("B1")], EPS);
        double[] before = residual.clone();
        assertEquals(Double.POSITIVE_INFINITY, Madd.apply(h.state(), h.coflow("A"), residual, rate), 0.0);
        assertEquals(0.0, rate[h.flow("A1")], 0.0);
        assertEquals(0.0, rate[h.flow("A2")], 0.0);
        assertArrayEquals(before, residual, 0.0);
    }

    /** T-SKIPL-1: with R = B − A (B(l1) = 50), τ = 2.0, so f1 = 100/2 = 50 and f2 = 50/2 = 25. */
    @Test
    void tSkipl1RatesOnLinkEstimate() {
        Hand h = Hand.of(Scenario.withCapacity(100).link("l1", 100)
                .coflow("C", 0).flowVia("f1", "h1", "h2", 100, "l1").flow("f2", "h1", "h3", 50).build());
        double[] residual = h.fullCapacity();
        residual[h.link(0)] = 50;
        double[] rate = h.noRates();
        rate[h.flow("f2")] = 1; // MADD adds to what the flow already has
        assertEquals(2.0, Madd.apply(h.state(), h.coflow("C"), residual, rate), EPS);
        assertEquals(50.0, rate[h.flow("f1")], EPS);
        assertEquals(26.0, rate[h.flow("f2")], EPS);
        assertEquals(25.0, residual[h.up("h1")], EPS);
        assertEquals(0.0, residual[h.link(0)], EPS);
        assertEquals(50.0, residual[h.down("h2")], EPS);
        assertEquals(75.0, residual[h.down("h3")], EPS);
    }

    /** A coflow with nothing left: Γ = 0 and nothing is allocated. */
    @Test
    void nothingLeftAllocatesNothing() {
        Scenario v1 = Fixtures.v1();
        ClusterState s = Snapshot.of(v1).finished("B1").build();
        Hand h = new Hand(v1, s);
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        int[] b = s.flowsOf(s.indexOf(v1.coflow("B")));
        assertEquals(0.0, Madd.apply(s, b, residual, rate), 0.0);
        assertArrayEquals(h.noRates(), rate, 0.0);
        assertArrayEquals(h.fullCapacity(), residual, 0.0);
    }
}
