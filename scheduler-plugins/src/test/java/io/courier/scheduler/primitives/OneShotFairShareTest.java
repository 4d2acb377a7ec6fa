package io.courier.scheduler.primitives;

import static io.courier.scheduler.primitives.Hand.EPS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import org.junit.jupiter.api.Test;

/** P5 OneShotFairShare (SCHEDULERS.md §0.5). */
class OneShotFairShareTest {

    /**
     * T-FAIR-1's flows (f1 a→x, f2 a→y, f3 b→y, f4 c→y): n(up(a)) = 2, n(down(y)) = 3, so f1 = min(1/2, 1)
     * = 1/2 and f2 = f3 = f4 = 1/3 — CoflowSim's numbers, leaving 1/6 on up(a) and 1/2 on down(x).
     */
    @Test
    void tFair1SharesAreComputedOnceFromTheSameResidual() {
        Hand h = Hand.of(Scenario.unitCapacity().hosts("a", "b", "c", "x", "y").coflow("C", 0)
                .flow("f1", "a", "x", 10).flow("f2", "a", "y", 10).flow("f3", "b", "y", 10).flow("f4", "c", "y", 10)
                .build());
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        OneShotFairShare.apply(h.state(), h.flows("f1", "f2", "f3", "f4"), residual, rate);
        assertEquals(0.5, rate[h.flow("f1")], EPS);
        assertEquals(1.0 / 3, rate[h.flow("f2")], EPS);
        assertEquals(1.0 / 3, rate[h.flow("f3")], EPS);
        assertEquals(1.0 / 3, rate[h.flow("f4")], EPS);
        assertEquals(1.0 / 6, residual[h.up("a")], EPS);
        assertEquals(0.5, residual[h.down("x")], EPS);
        assertEquals(0.0, residual[h.down("y")], EPS);
        assertEquals(2.0 / 3, residual[h.up("b")], EPS);
    }

    /**
     * T-VARYS-1 work conservation step 1: after B1 = 1 (up(s1), down(r2) full), A1 (s1→r1) is dropped and
     * does not count on down(r1), so A2 (s2→r1) gets all of it: A1 = 0, A2 = 1.
     */
    @Test
    void tVarys1FlowsOnFullPortsAreDroppedBeforeCounting() {
        Hand h = Hand.of(Fixtures.v1());
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        Madd.apply(h.state(), h.coflow("B"), residual, rate);
        OneShotFairShare.apply(h.state(), h.coflow("A"), residual, rate);
        assertEquals(1.0, rate[h.flow("B1")], EPS);
        assertEquals(0.0, rate[h.flow("A1")], 0.0);
        assertEquals(1.0, rate[h.flow("A2")], EPS);
        assertEquals(0.0, residual[h.down("r1")], EPS);
    }

    /** T-VARYS-2 step 1: after B1 = 1, A1 = 1 and A2 = 0 (down(r2) is full). Finished flows are skipped. */
    @Test
    void tVarys2AndFinishedFlows() {
        Scenario v2 = Fixtures.v2();
        ClusterState s = Snapshot.of(v2).build();
        Hand h = new Hand(v2, s);
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        Madd.apply(s, h.coflow("B"), residual, rate);
        OneShotFairShare.apply(s, h.coflow("A"), residual, rate);
        assertEquals(1.0, rate[h.flow("A1")], EPS);
        assertEquals(0.0, rate[h.flow("A2")], 0.0);

        ClusterState done = Snapshot.of(v2).finished("A1").build();
        Hand d = new Hand(v2, done);
        double[] r2 = d.fullCapacity();
        double[] rate2 = d.noRates();
        OneShotFairShare.apply(done, done.flowsOf(done.indexOf(v2.coflow("A"))), r2, rate2);
        assertEquals(0.0, rate2[d.flow("A1")], 0.0);
        assertEquals(1.0, rate2[d.flow("A2")], EPS);
        assertEquals(1.0, r2[d.up("s1")], 0.0);
    }
}
