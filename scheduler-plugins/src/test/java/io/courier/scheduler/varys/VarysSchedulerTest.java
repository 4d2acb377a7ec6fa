package io.courier.scheduler.varys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.fair.FairScheduler;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import org.junit.jupiter.api.Test;

class VarysSchedulerTest {
    private static final double EPS = 1e-9;

    /** T-VARYS-1: B (Γ = 1) before A (Γ = 4); A1 blocked on up(s1), A2 gets the WC fair share; then Γ_A = 3. */
    @Test
    void tVarys1() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v1(), new VarysScheduler(false));
        assertEquals(1.0, r.rateAt(0, "B1"), EPS);
        assertEquals(0.0, r.rateAt(0, "A1"), EPS);
        assertEquals(1.0, r.rateAt(0, "A2"), EPS);
        assertEquals(2.0 / 3, r.rateAt(1, "A1"), EPS);
        assertEquals(1.0 / 3, r.rateAt(1, "A2"), EPS);
        assertEquals(1.0, r.cct("B"), EPS);
        assertEquals(4.0, r.cct("A"), EPS);
    }

    /** T-VARYS-2: at t=2 MADD alone would give A2 = 0.5; the top-up raises it to 1. */
    @Test
    void tVarys2TopUpRestoresNonBottleneckFlows() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v2(), new VarysScheduler(false));
        assertEquals(1.0, r.rateAt(0, "B1"), EPS);
        assertEquals(1.0, r.rateAt(0, "A1"), EPS);
        assertEquals(0.0, r.rateAt(0, "A2"), EPS);
        assertEquals(1.0, r.rateAt(2, "A1"), EPS);
        assertEquals(1.0, r.rateAt(2, "A2"), EPS);
        assertEquals(2.0, r.cct("B"), EPS);
        assertEquals(4.0, r.cct("A"), EPS);
    }

    /** T-VARYS-3: the short coflows B and C preempt A. */
    @Test
    void tVarys3() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(), new VarysScheduler(false));
        assertEquals(5.0, r.cct("A"), EPS);
        assertEquals(1.0, r.cct("B"), EPS);
        assertEquals(1.0, r.cct("C"), EPS);
    }

    /** T-VARYS-4: seed 004 Fig. 2 (reconstructed layout): Varys C1 = 3, C2 = 6; per-flow fairness C1 = 4, C2 = 6. */
    @Test
    void tVarys4WeightedPaperFigure2() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("C1", 0).flow("B", "Z", 3).flow("D", "W", 1).flow("C", "X", 2)
                .coflow("C2", 0).flow("A", "X", 2).flow("A", "Y", 4)
                .build();
        ExactFluidLoop.Result varys = ExactFluidLoop.run(sc, new VarysScheduler(false));
        assertEquals(3.0, varys.cct("C1"), EPS);
        assertEquals(6.0, varys.cct("C2"), EPS);
        ExactFluidLoop.Result fair = ExactFluidLoop.run(sc, new FairScheduler(false));
        assertEquals(4.0, fair.cct("C1"), EPS);
        assertEquals(6.0, fair.cct("C2"), EPS);
    }

    /**
     * The static key orders by total sizes: once A (total Γ 4) has sent enough that its remaining Γ is
     * below B's, the dynamic key serves A first while the static key still serves B first.
     */
    @Test
    void staticKeyIgnoresProgress() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("A", 0).flow("s1", "r1", 4)
                .coflow("B", 3).flow("s1", "r2", 2)
                .build();
        ExactFluidLoop.Result dynamic = ExactFluidLoop.run(sc, new VarysScheduler(false));
        assertEquals(4.0, dynamic.cct("A"), EPS);   // at t=3 A has 1 left (Γ 1) < B's 2
        assertEquals(3.0, dynamic.cct("B"), EPS);
        ExactFluidLoop.Result fixed = ExactFluidLoop.run(sc, new VarysScheduler(true));
        assertEquals(6.0, fixed.cct("A"), EPS);     // B (total Γ 2) < A (total Γ 4) preempts A
        assertEquals(2.0, fixed.cct("B"), EPS);
    }
}
