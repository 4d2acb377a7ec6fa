package io.courier.scheduler.primitives;

import static io.courier.scheduler.primitives.Hand.EPS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.testing.Scenario;
import org.junit.jupiter.api.Test;

/**
 * P1 MaxMin (SCHEDULERS.md §0.5) on hand-checked cases. The network: hosts a, b, x, y with capacity 1
 * except x (0.6); f1 a→x, f2 b→x, f3 a→y. Progressive filling saturates down(x) first at 0.3
 * (f1 = f2 = 0.3), then f3 alone fills the rest of up(a): 0.7.
 */
class MaxMinTest {

    private static Scenario.Builder base() {
        return Scenario.unitCapacity().hosts("a", "b", "x", "y").hostCapacity("x", 0.6);
    }

    private static Hand plain() {
        return Hand.of(base().coflow("C", 0)
                .flow("f1", "a", "x", 10).flow("f2", "b", "x", 10).flow("f3", "a", "y", 10).build());
    }

    @Test
    void waterFillingIsExact() {
        Hand h = plain();
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        MaxMin.fill(h.state(), h.flows("f1", "f2", "f3"), residual, null, rate);
        assertEquals(0.3, rate[h.flow("f1")], EPS);
        assertEquals(0.3, rate[h.flow("f2")], EPS);
        assertEquals(0.7, rate[h.flow("f3")], EPS);
        assertEquals(0.0, residual[h.up("a")], EPS);
        assertEquals(0.0, residual[h.down("x")], EPS);
        assertEquals(0.7, residual[h.up("b")], EPS);
        assertEquals(0.3, residual[h.down("y")], EPS);
        assertEquals(0.6, residual[h.up("x")], EPS);
    }

    /**
     * Demand caps f1 = 0.1, f3 = 0.4: f1 stops at 0.1, f3 at 0.4; f2 then fills down(x): 0.6 − 0.1 = 0.5.
     */
    @Test
    void demandCapsFreezeFlowsAndTheRestFillsUp() {
        Hand h = plain();
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        double[] demand = new double[h.state().flowCount()];
        demand[h.flow("f1")] = 0.1;
        demand[h.flow("f2")] = Double.POSITIVE_INFINITY;
        demand[h.flow("f3")] = 0.4;
        MaxMin.fill(h.state(), h.flows("f1", "f2", "f3"), residual, demand, rate);
        assertEquals(0.1, rate[h.flow("f1")], EPS);
        assertEquals(0.5, rate[h.flow("f2")], EPS);
        assertEquals(0.4, rate[h.flow("f3")], EPS);
        assertEquals(0.5, residual[h.up("a")], EPS);
        assertEquals(0.0, residual[h.down("x")], EPS);
        assertEquals(0.5, residual[h.up("b")], EPS);
        assertEquals(0.6, residual[h.down("y")], EPS);
    }

    /** A zero demand gets nothing and leaves its share to the others. */
    @Test
    void zeroDemandGetsNothing() {
        Hand h = plain();
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        double[] demand = new double[h.state().flowCount()];
        demand[h.flow("f2")] = Double.POSITIVE_INFINITY;
        demand[h.flow("f3")] = Double.POSITIVE_INFINITY;
        MaxMin.fill(h.state(), h.flows("f1", "f2", "f3"), residual, demand, rate);
        assertEquals(0.0, rate[h.flow("f1")], 0.0);
        assertEquals(0.6, rate[h.flow("f2")], EPS);
        assertEquals(1.0, rate[h.flow("f3")], EPS);
    }

    /** f1 also crosses link L (0.2): L saturates first (f1 = 0.2), then f2 = 0.4 and f3 = 0.8. */
    @Test
    void extraLinksAreResourcesToo() {
        Hand h = Hand.of(base().link("L", 0.2).coflow("C", 0)
                .flowVia("f1", "a", "x", 10, "L").flow("f2", "b", "x", 10).flow("f3", "a", "y", 10).build());
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        MaxMin.fill(h.state(), h.flows("f1", "f2", "f3"), residual, null, rate);
        assertEquals(0.2, rate[h.flow("f1")], EPS);
        assertEquals(0.4, rate[h.flow("f2")], EPS);
        assertEquals(0.8, rate[h.flow("f3")], EPS);
        assertEquals(0.0, residual[h.link(0)], EPS);
        assertEquals(0.0, residual[h.down("x")], EPS);
        assertEquals(0.0, residual[h.up("a")], EPS);
    }

    /**
     * On a residual where down(x) is already full, f1 and f2 get 0 (spec line 2) and f3 takes up(a);
     * rates are added to what the flows already had.
     */
    @Test
    void flowsOnAFullResourceGetNothingAndRatesAccumulate() {
        Hand h = plain();
        double[] residual = h.fullCapacity();
        residual[h.down("x")] = 0.5e-9; // below EPS_RATE = 1e-9 · max cap
        double[] rate = h.noRates();
        rate[h.flow("f3")] = 0.25;
        MaxMin.fill(h.state(), h.flows("f1", "f2", "f3"), residual, null, rate);
        assertEquals(0.0, rate[h.flow("f1")], 0.0);
        assertEquals(0.0, rate[h.flow("f2")], 0.0);
        assertEquals(1.25, rate[h.flow("f3")], EPS);
        assertEquals(0.0, residual[h.up("a")], EPS);
    }

    /** Only the listed flows are filled; the others keep their rate and use no capacity. */
    @Test
    void unlistedFlowsAreUntouched() {
        Hand h = plain();
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        MaxMin.fill(h.state(), h.flows("f2", "f3"), residual, null, rate);
        assertEquals(0.0, rate[h.flow("f1")], 0.0);
        assertEquals(0.6, rate[h.flow("f2")], EPS);
        assertEquals(1.0, rate[h.flow("f3")], EPS);
    }
}
