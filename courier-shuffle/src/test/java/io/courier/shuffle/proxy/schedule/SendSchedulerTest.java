package io.courier.shuffle.proxy.schedule;

import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.planning.PlanningMode;
import io.courier.scheduler.planning.SelectAndSplit;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sender's plan: Merge and SelectAndSplit (SCHEDULERS.md §11) applied to the streams a node sends. */
class SendSchedulerTest {
    private static final double MB = 1 << 20;
    private static final FlowId FA = FlowId.of(1);
    private static final FlowId FB = FlowId.of(2);
    private static final FlowId FC = FlowId.of(3);
    private final List<FlowBinding> bindings = Arrays.asList(new FlowBinding(FA, "jobA", "p1"),
            new FlowBinding(FB, "jobB", "p1"), new FlowBinding(FC, "jobA", "p2"));

    private static Decision rates(double a, double b, double c) {
        Map<FlowId, Double> m = new HashMap<>();
        m.put(FA, a);
        m.put(FB, b);
        m.put(FC, c);
        return Decision.ofRates(m);
    }

    private static Decision order(int a, int b, int c) {
        Map<FlowId, Integer> m = new HashMap<>();
        m.put(FA, a);
        m.put(FB, b);
        m.put(FC, c);
        return Decision.ofOrder(Arrays.asList(CoflowId.of(1), CoflowId.of(2)), m);
    }

    private static SendScheduler withStreams(int maxNum, double minSize) {
        SendScheduler s = new SendScheduler("self", maxNum, minSize);
        s.streamStarted("jobA", "p1", (long) (4 * MB));
        s.streamStarted("jobB", "p1", (long) (2 * MB));
        s.streamStarted("jobA", "p2", (long) (1 * MB));
        return s;
    }

    @Test
    void rateDecisionPacesEachPairAtTheSumOfItsRatesAndSharesItByRate() {
        SendScheduler s = withStreams(SelectAndSplit.UNLIMITED, MB);
        s.apply(rates(30, 10, 5), bindings);
        SendPlan p = s.plan();
        assertEquals(PlanningMode.RATE, p.mode());
        assertEquals(40.0, p.peer("p1").rate(), 1e-9);
        assertEquals(5.0, p.peer("p2").rate(), 1e-9);
        assertEquals(new StreamClass(0, 30), p.classOf("jobA", "p1"));
        assertEquals(new StreamClass(0, 10), p.classOf("jobB", "p1"));
        assertTrue(p.peer("p1").running() && p.peer("p2").running());
        assertEquals(1, p.peer("p1").flows());
    }

    @Test
    void orderDecisionGivesStrictRanksAndDoesNotPace() {
        SendScheduler s = withStreams(SelectAndSplit.UNLIMITED, MB);
        s.apply(order(1, 0, 3), bindings);
        SendPlan p = s.plan();
        assertEquals(PlanningMode.ORDER, p.mode());
        assertEquals(0, p.classOf("jobB", "p1").rank());
        assertEquals(1, p.classOf("jobA", "p1").rank());
        assertEquals(3, p.classOf("jobA", "p2").rank());
        assertTrue(Double.isInfinite(p.peer("p1").rate()));
    }

    @Test
    void withoutADecisionEveryJobOfAPairGetsAnEqualShare() {
        SendScheduler s = withStreams(SelectAndSplit.UNLIMITED, MB);
        SendPlan p = s.plan();
        assertEquals(PlanningMode.NONE, p.mode());
        assertEquals(new StreamClass(0, 1.0), p.classOf("jobA", "p1"));
        assertEquals(new StreamClass(0, 1.0), p.classOf("jobB", "p1"));
        assertTrue(p.peer("p1").running() && p.peer("p2").running());
    }

    @Test
    void maxNumStartsTheLargestPairFirstWithoutADecision() {
        SendScheduler s = withStreams(1, 100 * MB);
        assertTrue(s.plan().peer("p1").running(), "p1 carries 6 MB, p2 1 MB: p1 starts");
        assertFalse(s.plan().peer("p2").running());
        s.streamEnded("jobA", "p1", 0);
        s.streamEnded("jobB", "p1", 0);
        assertTrue(s.plan().peer("p2").running(), "p2 starts when p1 has nothing left");
    }

    @Test
    void maxNumStartsTheHighestRatePairFirst() {
        SendScheduler s = withStreams(1, 100 * MB);
        s.apply(rates(1, 1, 5), bindings);
        assertFalse(s.plan().peer("p1").running(), "p1's unified rate 2 < p2's 5");
        assertTrue(s.plan().peer("p2").running());
    }

    @Test
    void maxNumStartsTheBestRankFirstAndHoldsEqualRanksTogether() {
        SendScheduler s = withStreams(1, 100 * MB);
        s.apply(order(2, 2, 0), bindings);
        assertTrue(s.plan().peer("p2").running());
        assertFalse(s.plan().peer("p1").running());
    }

    @Test
    void spareQuotaSplitsTheLargestPairWhileItIsAboveMinSize() {
        // 6 MB to p1 with MinSize 1 MB and MaxNum 4: p1 and p2 start, then p1 splits into 2, then one half again.
        SendScheduler s = withStreams(4, MB);
        s.apply(rates(30, 10, 5), bindings);
        PeerPlan p1 = s.plan().peer("p1");
        assertEquals(3, p1.flows());
        assertEquals(40.0, p1.rate(), 1e-9, "the halves of a split add back to the unified rate");
        assertEquals(1, s.plan().peer("p2").flows());
    }

    @Test
    void streamsOfJobsTheDecisionDoesNotNameAreBackground() {
        SendScheduler s = withStreams(SelectAndSplit.UNLIMITED, MB);
        s.streamStarted("jobZ", "p1", 100);
        s.apply(rates(30, 10, 5), bindings);
        assertEquals(StreamClass.BACKGROUND, s.plan().classOf("jobZ", "p1"));
    }

    /** Counts the calls of one connection's listener. */
    private static final class Calls implements Runnable {
        int n;

        @Override
        public void run() {
            n++;
        }
    }

    @Test
    void onlyConnectionsOfPeersWhosePlanChangedAreCalled() {
        SendScheduler s = withStreams(SelectAndSplit.UNLIMITED, 100 * MB);
        Calls p1 = new Calls();
        Calls p2 = new Calls();
        Calls p3 = new Calls();
        s.addListener("p1", p1);
        s.addListener("p2", p2);
        s.addListener("p3", p3);
        s.streamStarted("jobB", "p2", 100); // a new class for p2; p1's plan and classes stay as they are
        assertEquals(0, p1.n);
        assertEquals(1, p2.n);
        s.streamStarted("jobB", "p2", 100); // one more stream of a flow already planned: nothing moved
        assertEquals(1, p2.n);
        s.connectionsChanged("p1", +1); // the pair's rate is shared by one more connection of p1
        assertEquals(1, p1.n);
        assertEquals(1, p2.n);
        s.apply(order(1, 0, 3), bindings); // jobA and jobB to p1 get ranks, jobA to p2 too; jobB to p2 is unnamed
        assertEquals(2, p1.n);
        assertEquals(2, p2.n);
        s.apply(order(1, 0, 3), bindings); // the same decision again
        assertEquals(2, p1.n);
        assertEquals(2, p2.n);
        s.apply(order(1, 0, 4), bindings); // only jobA to p2 moves
        assertEquals(2, p1.n);
        assertEquals(3, p2.n);
        s.streamEnded("jobB", "p2", 0);
        s.streamEnded("jobB", "p2", 0); // the background flow of p2 is gone: its class was BACKGROUND before too
        assertEquals(3, p2.n);
        s.streamEnded("jobA", "p2", 0); // p2 has nothing left: unplanned now
        assertEquals(4, p2.n);
        assertEquals(0, p3.n, "a peer without streams is never called");
        s.removeListener(p1);
        s.apply(null, bindings);
        assertEquals(2, p1.n, "removed");
    }

    @Test
    void aFlowKeyFindsTheClassOfItsJobAndPeer() {
        SendScheduler s = withStreams(SelectAndSplit.UNLIMITED, MB);
        s.apply(order(1, 0, 3), bindings);
        SendPlan p = s.plan();
        for (String[] jp : new String[][] {{"jobA", "p1"}, {"jobB", "p1"}, {"jobA", "p2"}, {"jobZ", "p1"}}) {
            assertEquals(p.classOf(jp[0], jp[1]), p.classOf(SendScheduler.flowKey(jp[0], jp[1])));
        }
        assertEquals(3, p.classOf(SendScheduler.flowKey("jobA", "p2")).rank());
    }
}
