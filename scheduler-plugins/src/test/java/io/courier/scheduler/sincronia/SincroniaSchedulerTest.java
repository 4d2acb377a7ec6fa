package io.courier.scheduler.sincronia;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.varys.VarysScheduler;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SincroniaSchedulerTest {
    private static final double EPS = 1e-9;

    private static SincroniaScheduler sincronia() {
        return new SincroniaScheduler(Integer.MAX_VALUE, Double.POSITIVE_INFINITY);
    }

    private static List<CoflowId> ids(Scenario sc, String... names) {
        CoflowId[] out = new CoflowId[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = sc.coflow(names[i]);
        }
        return Arrays.asList(out);
    }

    /** T-SINC-1: unit weights on S3; BSSI gives C2, C3, C1 and the greedy run gives CCTs 1, 3, 4 like Varys. */
    @Test
    void tSinc1UnitWeights() {
        Scenario sc = Fixtures.s3();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, sincronia());
        assertEquals(ids(sc, "C2", "C3", "C1"), r.decisionAt(0).coflowOrder());
        assertEquals(1.0, r.cct("C2"), EPS);
        assertEquals(3.0, r.cct("C3"), EPS);
        assertEquals(4.0, r.cct("C1"), EPS);
        ExactFluidLoop.Result varys = ExactFluidLoop.run(sc, new VarysScheduler(false));
        assertEquals(8.0, varys.cct("C1") + varys.cct("C2") + varys.cct("C3"), EPS);
    }

    /** T-SINC-2: weights 4, 1, 1 give C3, C1, C2 and weighted CCT 18, against 20 for the SEBF order. */
    @Test
    void tSinc2Weighted() {
        Scenario sc = Fixtures.s3(4, 1, 1);
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, sincronia());
        assertEquals(ids(sc, "C3", "C1", "C2"), r.decisionAt(0).coflowOrder());
        assertEquals(2.0, r.cct("C3"), EPS);
        assertEquals(3.0, r.cct("C1"), EPS);
        assertEquals(4.0, r.cct("C2"), EPS);
        assertEquals(18.0, r.weightedCct(), EPS);
        assertEquals(20.0, ExactFluidLoop.run(sc, new VarysScheduler(false)).weightedCct(), EPS);
    }

    /** T-SINC-3: Fai Fig. 1; at t = 2 BSSI on remaining bytes orders C3, C1, C2; CCTs 3, 5, 3. */
    @Test
    void tSinc3FaiFigure1() {
        Scenario sc = Fixtures.fai1();
        ExactFluidLoop.Result r = ExactFluidLoop.run(sc, sincronia());
        assertEquals(ids(sc, "C3", "C1", "C2"), r.decisionAt(2).coflowOrder());
        assertEquals(3.0, r.cct("C1"), EPS);
        assertEquals(5.0, r.cct("C2"), EPS);
        assertEquals(3.0, r.cct("C3"), EPS);
    }

    /** With P priority levels, ranks beyond P − 1 share the lowest class. */
    @Test
    void priorityLevelsCapTheClasses() {
        Scenario sc = Fixtures.s3();
        Decision d = ExactFluidLoop.run(sc, new SincroniaScheduler(2, Double.POSITIVE_INFINITY)).decisionAt(0);
        assertEquals(Integer.valueOf(0), d.priorities().get(sc.flow("C21")));
        assertEquals(Integer.valueOf(1), d.priorities().get(sc.flow("C31")));
        assertEquals(Integer.valueOf(1), d.priorities().get(sc.flow("C11")));
    }
}
