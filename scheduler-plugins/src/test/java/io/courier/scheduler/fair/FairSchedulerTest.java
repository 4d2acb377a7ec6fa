package io.courier.scheduler.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.testing.ExactFluidLoop;
import io.courier.scheduler.testing.Fixtures;
import org.junit.jupiter.api.Test;

class FairSchedulerTest {
    private static final double EPS = 1e-9;

    /** T-FAIR-1: f1 a→x, f2 a→y, f3 b→y, f4 c→y; hosts a,b,c,x,y. */
    private static ClusterState tFair1() {
        int a = 0, b = 1, c = 2, x = 3, y = 4;
        return ClusterState.builder(Network.uniform(5, 1.0))
                .coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, a, x, 10)).flow(Flow.of(2, 1, a, y, 10))
                .flow(Flow.of(3, 1, b, y, 10)).flow(Flow.of(4, 1, c, y, 10))
                .build();
    }

    @Test
    void tFair1MaxMin() {
        Decision d = new FairScheduler(false).schedule(tFair1().withSizesHidden());
        assertEquals(2.0 / 3, d.rateOf(FlowId.of(1)), EPS);
        assertEquals(1.0 / 3, d.rateOf(FlowId.of(2)), EPS);
        assertEquals(1.0 / 3, d.rateOf(FlowId.of(3)), EPS);
        assertEquals(1.0 / 3, d.rateOf(FlowId.of(4)), EPS);
    }

    @Test
    void tFair1CoflowSimVariant() {
        Decision d = new FairScheduler(true).schedule(tFair1().withSizesHidden());
        assertEquals(0.5, d.rateOf(FlowId.of(1)), EPS);
        assertEquals(1.0 / 3, d.rateOf(FlowId.of(2)), EPS);
        assertEquals(1.0 / 3, d.rateOf(FlowId.of(3)), EPS);
        assertEquals(1.0 / 3, d.rateOf(FlowId.of(4)), EPS);
    }

    @Test
    void tFair2FaiFigure1() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.fai1(), new FairScheduler(false));
        assertEquals(4.0, r.cct("C1"), EPS);
        assertEquals(5.0, r.cct("C2"), EPS);
        assertEquals(4.0, r.cct("C3"), EPS);
    }

    @Test
    void tFair3V1() {
        ExactFluidLoop.Result r = ExactFluidLoop.run(Fixtures.v1(), new FairScheduler(false));
        assertEquals(4.0, r.cct("A"), EPS);
        assertEquals(2.0, r.cct("B"), EPS);
    }
}
