package io.courier.scheduler.iaoa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.HiddenInformationException;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.WeightedFixtures;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Alg. 2 of seed 004 (SCHEDULERS.md §9 companion); expected values derived by hand on §10's Fig. 3 fixture and S3. */
class SimpleOfflineSchedulerTest {
    private static final double EPS = 1e-9;

    private static ClusterState atZero(Scenario sc) {
        return ClusterState.builder(sc.network()).coflows(sc.coflows()).flows(sc.flows()).build();
    }

    @Test
    void keyIsTotalLengthOverWeight() {
        ClusterState s = atZero(WeightedFixtures.fig3(2, 1));
        double[] key = AlphaOrder.totalSizeAlphas(s);
        assertArrayEquals(new double[] {5.0 / 2, 1.0}, key, EPS);
        assertArrayEquals(new int[] {1, 0}, AlphaOrder.order(s, key));
    }

    @Test
    void fig3WeightsTwoOne() {
        // C2 (1) before C1 (2.5). C1's common rate is 0 (up(L1) is taken); the leftover max-min still runs L3→r3.
        ExactFluidLoop.Result r = ExactFluidLoop.run(WeightedFixtures.fig3(2, 1), new SimpleOfflineScheduler());
        assertEquals(1.0, r.rateAt(0, "C13"), EPS);
        assertEquals(0.0, r.rateAt(0, "C11"), EPS);
        assertEquals(6.0, r.cct("C1"), EPS);
        assertEquals(1.0, r.cct("C2"), EPS);
        assertEquals(13.0, r.weightedCct(), EPS);
    }

    @Test
    void fig3WeightsSixOne() {
        // C1 (5/6) before C2 (1). C2's common rate stays 0 while up(L1) is busy; C22 gets leftover from t = 1.
        ExactFluidLoop.Result r = ExactFluidLoop.run(WeightedFixtures.fig3(6, 1), new SimpleOfflineScheduler());
        assertEquals(0.0, r.rateAt(0, "C22"), EPS);
        assertEquals(1.0, r.rateAt(1, "C22"), EPS);
        assertEquals(5.0, r.cct("C1"), EPS);
        assertEquals(6.0, r.cct("C2"), EPS);
        assertEquals(36.0, r.weightedCct(), EPS);
    }

    @Test
    void s3WithWeightsFourOneOne() {
        // Keys C1 = 3/4, C2 = 1, C3 = 2: C1, C2, C3. C2 gets 0 until C1 frees i1 and o1 at 3.
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.s3(4, 1, 1), new SimpleOfflineScheduler());
        assertEquals(3.0, r.cct("C1"), EPS);
        assertEquals(4.0, r.cct("C2"), EPS);
        assertEquals(2.0, r.cct("C3"), EPS);
        assertEquals(18.0, r.weightedCct(), EPS);
    }

    @Test
    void declaresSizesAndRefusesHiddenOnes() {
        SimpleOfflineScheduler s = new SimpleOfflineScheduler();
        assertEquals(SchedulerType.RATE_BASED, s.type());
        assertTrue(s.needs().contains(Info.SIZES) && s.needs().contains(Info.WEIGHTS));
        ClusterState hidden = atZero(WeightedFixtures.fig3(2, 1)).withSizesHidden();
        assertThrows(HiddenInformationException.class, () -> s.schedule(hidden));
    }

    @Test
    void registeredWithoutParameters() {
        assertEquals("simple-offline", SchedulerRegistry.standard().create("simple-offline").name());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SchedulerRegistry.standard()
                .create("simple-offline", Collections.singletonMap("ordering", "size")));
        assertTrue(e.getMessage().contains("simple-offline"), e.getMessage());
    }
}
