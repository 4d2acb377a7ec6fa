package io.courier.shuffle.coordination;

import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.courier.shuffle.proxy.schedule.StreamClass;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The receiving half of a coordinator decision: ranks or rates of the flows this node fetches, per source. */
class DecisionTranslatorReceiveTest {
    private static final String SELF = "127.0.0.1:7000";
    private static final String A = "127.0.0.1:7001";
    private static final String B = "127.0.0.1:7002";

    @Test
    void orderBasedFlowsIntoThisNodeKeepTheirRanksPerSource() {
        DecisionUpdate u = new DecisionUpdate(3, "fifo", true, Arrays.asList(
                new FlowDecision("job_1", A, SELF, 0, -1, 2),
                new FlowDecision("job_2", B, SELF, 0, 0, 5),
                new FlowDecision("job_3", SELF, A, 0, 0, 0))); // this node sends it: not the receiver's business
        ReceivePlan p = new DecisionTranslator(SELF).receivePlan(u);
        assertEquals(2, p.classOf("job_1", A).rank(), "no class: the coflow's rank");
        assertEquals(0, p.classOf("job_2", B).rank(), "the flow's priority class");
        assertEquals(StreamClass.BACKGROUND, p.classOf("job_2", A), "another source is not covered");
        assertEquals(StreamClass.BACKGROUND, p.classOf("job_3", A));
    }

    @Test
    void rateBasedFlowsBecomeWeights() {
        DecisionUpdate u = new DecisionUpdate(4, "varys", false, Arrays.asList(
                new FlowDecision("job_1", A, SELF, 3e6, -1, -1),
                new FlowDecision("job_2", A, SELF, 1e6, -1, -1)));
        ReceivePlan p = new DecisionTranslator(SELF).receivePlan(u);
        assertEquals(3e6, p.classOf("job_1", A).weight(), 0.0);
        assertEquals(1e6, p.classOf("job_2", A).weight(), 0.0);
        assertEquals(p.classOf("job_1", A).rank(), p.classOf("job_2", A).rank(), "one rank: shares by weight");
    }

    @Test
    void aDecisionWithNothingForThisReceiverIsNoPlan() {
        DecisionUpdate u = new DecisionUpdate(5, "fifo", true, Arrays.asList(
                new FlowDecision("job_1", SELF, A, 0, 0, 0)));
        assertTrue(new DecisionTranslator(SELF).receivePlan(u).isEmpty());
    }
}
