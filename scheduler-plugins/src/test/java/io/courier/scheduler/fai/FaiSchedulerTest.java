package io.courier.scheduler.fai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fai on the Fig. 1 example of seed 001 (SCHEDULERS.md §6, T-FAI-1) and its scheduler-level contracts. */
class FaiSchedulerTest {
    private static final double EPS = 1e-9;
    private static final String[] FAI1_FLOWS = {"C1F1", "C1F2", "C2F1", "C2F2", "C3F1", "C3F2"};

    /** Fai with the spec's defaults except Q1 = 4 units, as T-FAI-1 prescribes. */
    private static FaiScheduler fai(String interQueue, double epoch) {
        Map<String, String> p = new HashMap<>();
        p.put("firstThreshold", "4");
        p.put("interQueue", interQueue);
        p.put("epoch", Double.toString(epoch));
        return (FaiScheduler) SchedulerRegistry.standard().create("fai", p);
    }

    /** The FAI1 state at t = 2, as in the paper's narrative: C3 has sent 4 (2 per flow), C1 and C2 just arrived. */
    private static ClusterState fai1AtTwo(Scenario sc) {
        ClusterState.Builder b = ClusterState.builder(sc.network()).now(2).coflows(sc.coflows());
        for (Flow f : sc.flows()) {
            boolean c3 = f.id().equals(sc.flow("C3F1")) || f.id().equals(sc.flow("C3F2"));
            b.flow(c3 ? f.toBuilder().sent(2).build() : f);
        }
        return b.build().withSizesHidden();
    }

    private static void assertRates(Scenario sc, ClusterState state, double[] rate, double... expected) {
        for (int k = 0; k < FAI1_FLOWS.length; k++) {
            assertEquals(expected[k], rate[state.indexOf(sc.flow(FAI1_FLOWS[k]))], EPS, FAI1_FLOWS[k]);
        }
    }

    @Test
    void tFai1StagesAtTimeTwo() {
        Scenario sc = Fixtures.fai1();
        ClusterState s = fai1AtTwo(sc);
        FaiScheduler fai = fai("strict", 0.01);
        assertRates(sc, s, fai.allocate(s, FaiScheduler.Stage.INITIAL), 1, 0.5, 0.5, 1, 0, 0);
        assertRates(sc, s, fai.allocate(s, FaiScheduler.Stage.BOTTLENECK), 0.5, 0.5, 0.5, 0.5, 0, 0);
        assertRates(sc, s, fai.allocate(s, FaiScheduler.Stage.REALLOCATED), 0.5, 0.5, 0.5, 0.5, 0.5, 0.5);
    }

    @Test
    void tFai1ThroughTheLoopWithTheDefaultEpoch() {
        Scenario sc = Fixtures.fai1();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, fai("strict", 0.01));
        for (String f : FAI1_FLOWS) {
            assertEquals(0.5, r.rateAt(2, f), EPS, f + " at t=2");
        }
        assertEquals(4.0, r.cct("C1"), EPS);
        assertEquals(5.0, r.cct("C2"), EPS);
        assertEquals(4.0, r.cct("C3"), EPS);
        // One decision per epoch over [0, 7). C2 reaches Q1 = 4 exactly when C1 completes at t = 6; had
        // rounding left it a few ulps short, Fai would ask for a wake-up within 1e-12 s, which the loop
        // drops, and the epochs up to C2's end at t = 7 would be skipped (600 decisions instead of 700).
        assertTrue(r.decisionCount() >= 700, "decisions: " + r.decisionCount());
    }

    /**
     * Without epochs only arrivals, completions and threshold crossings trigger decisions. The result is the
     * same here because between those events every coflow's flows progress equally, so MBAB would take the
     * same decision at every epoch.
     */
    @Test
    void tFai1WithoutEpochsGivesTheSameCcts() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.fai1(), fai("strict", Double.POSITIVE_INFINITY));
        assertEquals(4.0, r.cct("C1"), EPS);
        assertEquals(5.0, r.cct("C2"), EPS);
        assertEquals(4.0, r.cct("C3"), EPS);
    }

    @Test
    void tFai1WeightedModeGivesTheSameCcts() {
        Scenario sc = Fixtures.fai1();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, fai("weighted", 0.01));
        assertEquals(4.0, r.cct("C1"), EPS);
        assertEquals(5.0, r.cct("C2"), EPS);
        assertEquals(4.0, r.cct("C3"), EPS);
        for (String f : FAI1_FLOWS) {
            assertEquals(0.5, r.rateAt(2, f), EPS, f + " at t=2");
        }
    }

    /**
     * Weighted step 1 at t = 2 (w_0 = 10, w_1 = 9): on P1 and P3 queue 0 is entitled to 10/19 and queue 1
     * (C3) to 9/19; P2 carries only queue 0. MBAB cuts C1F1 and C2F2 to 0.5, which frees 1/38 on P1 and P3;
     * step 3 gives it to C3: 9/19 + 1/38 = 1/2, the strict-mode result.
     */
    @Test
    void weightedStagesAtTimeTwo() {
        Scenario sc = Fixtures.fai1();
        ClusterState s = fai1AtTwo(sc);
        FaiScheduler fai = fai("weighted", 0.01);
        assertRates(sc, s, fai.allocate(s, FaiScheduler.Stage.INITIAL), 10.0 / 19, 0.5, 0.5, 10.0 / 19, 9.0 / 19,
                9.0 / 19);
        assertRates(sc, s, fai.allocate(s, FaiScheduler.Stage.BOTTLENECK), 0.5, 0.5, 0.5, 0.5, 9.0 / 19, 9.0 / 19);
        assertRates(sc, s, fai.allocate(s, FaiScheduler.Stage.REALLOCATED), 0.5, 0.5, 0.5, 0.5, 0.5, 0.5);
    }

    /** At t = 0 only C3 runs, at 1 per flow: it reaches Q1 = 4 at t = 2 unless the epoch comes first. */
    @Test
    void nextWakeupIsTheEpochOrTheThresholdCrossing() {
        Scenario sc = Fixtures.fai1();
        ClusterState.Builder b = ClusterState.builder(sc.network()).now(0).coflow(sc.coflows().get(2));
        for (Flow f : sc.flows()) {
            if (f.coflow().equals(sc.coflow("C3"))) {
                b.flow(f);
            }
        }
        ClusterState s = b.build().withSizesHidden();
        FaiScheduler withEpoch = fai("strict", 0.01);
        assertEquals(0.01, withEpoch.nextWakeup(s, withEpoch.schedule(s)), EPS);
        FaiScheduler noEpoch = fai("strict", Double.POSITIVE_INFINITY);
        Decision d = noEpoch.schedule(s);
        assertEquals(1.0, d.rateOf(sc.flow("C3F1")), EPS);
        assertEquals(2.0, noEpoch.nextWakeup(s, d), EPS);
    }

    @Test
    void queueBoundaryIsInclusive() {
        FaiScheduler fai = fai("strict", 0.01); // Q1 = 4, E = 10
        assertEquals(0, fai.queueOf(0));
        assertEquals(0, fai.queueOf(3.999));
        assertEquals(1, fai.queueOf(4));
        assertEquals(1, fai.queueOf(4 - 1e-14), "a crossing short of Q1 by rounding counts");
        assertEquals(1, fai.queueOf(39.999));
        assertEquals(2, fai.queueOf(40));
    }

    /** Fai is non-clairvoyant: states that differ only in flow sizes get identical decisions and wake-ups. */
    @Test
    void decisionIgnoresSizes() {
        Scenario sc = Fixtures.fai1();
        ClusterState small = fai1AtTwo(sc);
        ClusterState.Builder b = ClusterState.builder(sc.network()).now(2).coflows(sc.coflows());
        for (Flow f : small.flows()) {
            b.flow(Flow.builder(f.id(), f.coflow(), f.src(), f.dst()).sent(f.sent())
                    .size(f.sent() + 1000 + f.id().hashCode() % 7).build());
        }
        ClusterState large = b.build();
        CoflowScheduler fai = fai("strict", 0.01);
        assertTrue(fai.needs().isEmpty());
        Decision hidden = fai.schedule(small);
        Decision visible = fai.schedule(large);
        Decision largeHidden = fai.schedule(large.viewFor(fai.needs()));
        assertEquals(hidden.rates(), visible.rates());
        assertEquals(hidden.rates(), largeHidden.rates());
        assertEquals(fai.nextWakeup(small, hidden), fai.nextWakeup(large, visible), 0.0);
        for (String f : FAI1_FLOWS) {
            assertEquals(0.5, hidden.rateOf(sc.flow(f)), EPS, f);
        }
    }
}
