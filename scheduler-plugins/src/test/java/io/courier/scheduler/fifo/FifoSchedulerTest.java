package io.courier.scheduler.fifo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import org.junit.jupiter.api.Test;

class FifoSchedulerTest {
    private static final double EPS = 1e-9;

    /** T-FIFO-1: A holds s1 and r1 from t=0 to 4; B and C arrive at 1 and are blocked until A is done. */
    @Test
    void tFifo1HeadOfLineBlocking() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(), new FifoScheduler(FifoScheduler.Mode.MADD));
        assertEquals(4.0, r.cct("A"), EPS);
        assertEquals(4.0, r.cct("B"), EPS);
        assertEquals(4.0, r.cct("C"), EPS);
        assertEquals(0.0, r.rateAt(2, "B1"), EPS);
        assertEquals(0.0, r.rateAt(2, "C1"), EPS);
    }

    /** T-FIFO-2: simultaneous arrival, A first by id; Γ_A = 4 so A1 = A2 = 0.5; B1 gets Γ_B = 2 on the residual. */
    @Test
    void tFifo2SimultaneousArrivalTieById() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v1(), new FifoScheduler(FifoScheduler.Mode.MADD));
        assertEquals(0.5, r.rateAt(0, "A1"), EPS);
        assertEquals(0.5, r.rateAt(0, "A2"), EPS);
        assertEquals(0.5, r.rateAt(0, "B1"), EPS);
        assertEquals(2.0, r.cct("B"), EPS);
        assertEquals(4.0, r.cct("A"), EPS);
    }

    /** FIFO_GREEDY needs no sizes and blocks B and C behind A just the same. */
    @Test
    void greedyModeIsOrderBasedAndBlocksTheSame() {
        FifoScheduler s = new FifoScheduler(FifoScheduler.Mode.GREEDY);
        assertEquals(SchedulerType.ORDER_BASED, s.type());
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v3(), s);
        assertEquals(4.0, r.cct("A"), EPS);
        assertEquals(4.0, r.cct("B"), EPS);
        assertEquals(4.0, r.cct("C"), EPS);
    }
}
