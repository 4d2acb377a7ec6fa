package io.courier.scheduler.primitives;

import static io.courier.scheduler.primitives.Hand.EPS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import org.junit.jupiter.api.Test;

/** P4 GreedyTopUp (SCHEDULERS.md §0.5). */
class GreedyTopUpTest {

    /** T-VARYS-2 at t = 2: after MADD (A1 = 1, A2 = 0.5) the top-up gives A2 the rest: A1 = 1, A2 = 1. */
    @Test
    void tVarys2TopUpAfterMadd() {
        Scenario v2 = Fixtures.v2();
        ClusterState s = Snapshot.of(v2).now(2).active("A").sent("A1", 2).build();
        Hand h = new Hand(v2, s);
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        Madd.apply(s, h.coflow("A"), residual, rate);
        GreedyTopUp.apply(s, h.flows("A1", "A2"), residual, rate);
        assertEquals(1.0, rate[h.flow("A1")], EPS);
        assertEquals(1.0, rate[h.flow("A2")], EPS);
        assertEquals(0.0, residual[h.up("s2")], EPS);
        assertEquals(0.0, residual[h.down("r2")], EPS);
    }

    /** List order decides: f1 a→x and f2 a→y share up(a); whichever comes first takes all of it. */
    @Test
    void theFirstFlowInTheListTakesTheSharedPort() {
        Hand h = Hand.of(Scenario.unitCapacity().coflow("C", 0).flow("f1", "a", "x", 1).flow("f2", "a", "y", 1)
                .build());
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        GreedyTopUp.apply(h.state(), h.flows("f2", "f1"), residual, rate);
        assertEquals(0.0, rate[h.flow("f1")], 0.0);
        assertEquals(1.0, rate[h.flow("f2")], EPS);
        assertEquals(0.0, residual[h.up("a")], EPS);
        assertEquals(1.0, residual[h.down("x")], EPS);
    }

    /**
     * Each flow takes the minimum residual of its resources, links included; a crumb at or below EPS_RATE
     * is not handed out, and finished flows are skipped.
     */
    @Test
    void tightestResourceCrumbsAndFinishedFlows() {
        Scenario sc = Scenario.unitCapacity().link("L", 0.3)
                .coflow("C", 0).flowVia("f1", "a", "x", 1, "L").flow("f2", "b", "y", 1).flow("f3", "c", "z", 1)
                .build();
        ClusterState s = Snapshot.of(sc).finished("f3").build();
        Hand h = new Hand(sc, s);
        double[] residual = h.fullCapacity();
        residual[h.down("y")] = 1e-9; // = EPS_RATE
        double[] rate = h.noRates();
        GreedyTopUp.apply(s, h.flows("f1", "f2", "f3"), residual, rate);
        assertEquals(0.3, rate[h.flow("f1")], EPS);
        assertEquals(0.7, residual[h.up("a")], EPS);
        assertEquals(0.0, residual[h.link(0)], EPS);
        assertEquals(0.0, rate[h.flow("f2")], 0.0);
        assertEquals(1e-9, residual[h.down("y")], 0.0);
        assertEquals(0.0, rate[h.flow("f3")], 0.0);
        assertEquals(1.0, residual[h.up("c")], 0.0);
    }

    /**
     * {@link GreedyTopUp#applyToCoflow} gives exactly (bit for bit) the rates and residuals of {@link GreedyTopUp#apply}
     * over the coflow's unfinished flows, coflow after coflow, on random states whose ports are partly spent —
     * through both of its paths (candidates found by source or by destination host, and the plain pass when most
     * flows are candidates) — and on a network with an extra link, where the flows' own resources decide.
     */
    @Test
    void applyToCoflowIsApplyOnTheUnfinishedFlows() {
        java.util.Random rnd = new java.util.Random(3);
        for (int trial = 0; trial < 300; trial++) {
            int hosts = 2 + rnd.nextInt(12);
            io.courier.scheduler.model.Network.Builder nb = io.courier.scheduler.model.Network.builder();
            for (int h = 0; h < hosts; h++) {
                nb.host("h" + h, 10.0, 10.0);
            }
            if (trial % 10 == 9) {
                nb.link("L", 3.0);
            }
            io.courier.scheduler.model.Network net = nb.build();
            ClusterState.Builder b = ClusterState.builder(net).now(1.0);
            int coflows = 1 + rnd.nextInt(6);
            long id = 1;
            for (int c = 0; c < coflows; c++) {
                io.courier.scheduler.model.CoflowId cid = io.courier.scheduler.model.CoflowId.of(c + 1);
                b.coflow(new io.courier.scheduler.model.Coflow(cid, c, 1.0));
                for (int k = 0, n = 1 + rnd.nextInt(60); k < n; k++) {
                    io.courier.scheduler.model.Flow.Builder f = io.courier.scheduler.model.Flow.builder(
                            io.courier.scheduler.model.FlowId.of(id++), cid, rnd.nextInt(hosts), rnd.nextInt(hosts))
                            .size(100).sent(rnd.nextInt(100)).finished(rnd.nextInt(5) == 0);
                    if (net.linkCount() > 0 && rnd.nextBoolean()) {
                        f.path(0);
                    }
                    b.flow(f.build());
                }
            }
            ClusterState s = b.build();
            double[] residual = s.residualCapacities(false);
            for (int p = 0; p < 2 * hosts; p++) {
                int pick = rnd.nextInt(4);
                residual[p] = pick == 0 ? 0.0 : pick == 1 ? 1e-10 : rnd.nextDouble() * 10;
            }
            double[] residualA = residual.clone();
            double[] rateA = new double[s.flowCount()];
            double[] rateB = new double[s.flowCount()];
            for (int c = 0; c < s.coflowCount(); c++) {
                GreedyTopUp.apply(s, s.unfinishedFlowsOf(c), residualA, rateA);
                GreedyTopUp.applyToCoflow(s, c, residual, rateB);
                assertEquals(java.util.Arrays.toString(residualA), java.util.Arrays.toString(residual),
                        "trial " + trial + ", coflow " + c + ": residuals");
                assertEquals(java.util.Arrays.toString(rateA), java.util.Arrays.toString(rateB),
                        "trial " + trial + ", coflow " + c + ": rates");
            }
        }
    }
}
