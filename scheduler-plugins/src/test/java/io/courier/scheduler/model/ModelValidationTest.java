package io.courier.scheduler.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad input to the model is rejected where it enters, with a message that names the offender (host, link,
 * flow, coflow) and the rule; and a size-hiding view really hides sizes (SCHEDULERS.md §0.2).
 */
class ModelValidationTest {

    private static void rejects(Executable e, String... fragments) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String f : fragments) {
            assertTrue(x.getMessage().contains(f), "message '" + x.getMessage() + "' lacks '" + f + "'");
        }
    }

    // ---- network ----

    @Test
    void negativeOrNonFiniteCapacitiesAreRejected() {
        rejects(() -> Network.builder().host("a", -1, 1), "capacity of up(a)", ">= 0", "-1.0");
        rejects(() -> Network.builder().host("a", 1, Double.NaN), "capacity of down(a)", "NaN");
        rejects(() -> Network.builder().host("a", Double.POSITIVE_INFINITY, 1), "capacity of up(a)", "finite");
        rejects(() -> Network.builder().link("L1S1", -0.5), "capacity of link(L1S1)", "-0.5");
        rejects(() -> Network.builder().link("L1S1", Double.NaN), "capacity of link(L1S1)", "NaN");
        rejects(() -> Network.builder().build(), "at least one host");
    }

    // ---- coflows and flows ----

    @Test
    void badCoflowArrivalOrWeightIsRejected() {
        rejects(() -> new Coflow(CoflowId.of(4), Double.NaN, 1), "coflow-4", "arrival", "NaN");
        rejects(() -> new Coflow(CoflowId.of(4), -1, 1), "coflow-4", "arrival", "-1.0");
        rejects(() -> new Coflow(CoflowId.of(4), 0, 0), "coflow-4", "weight", "> 0", "0.0");
        rejects(() -> new Coflow(CoflowId.of(4), 0, Double.NaN), "coflow-4", "weight", "NaN");
    }

    @Test
    void negativeOrNaNSizeOrSentIsRejected() {
        rejects(() -> flow(3, 1, 0, 1).size(-1), "flow-3 (coflow-1)", "size must be a finite number >= 0", "-1.0");
        rejects(() -> flow(3, 1, 0, 1).size(Double.NaN), "flow-3 (coflow-1)", "size", "NaN");
        rejects(() -> flow(3, 1, 0, 1).sent(-2), "flow-3 (coflow-1)", "sent must be a finite number >= 0", "-2.0");
        rejects(() -> flow(3, 1, 0, 1).sent(Double.NaN), "flow-3 (coflow-1)", "sent", "NaN");
        rejects(() -> flow(3, 1, 0, 1).sent(Double.POSITIVE_INFINITY), "flow-3", "sent", "Infinity");
        rejects(() -> flow(3, 1, 0, 1).measuredRate(-1), "flow-3", "measured rate", "-1.0");
        rejects(() -> flow(3, 1, 0, 1).lastDesiredRate(Double.NaN), "flow-3", "last desired rate", "NaN");
    }

    @Test
    void aFlowOfAnUnknownCoflowIsRejected() {
        rejects(() -> ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 1, 1)).flow(Flow.of(2, 9, 0, 1, 1)).build(),
                "flow-2 belongs to unknown coflow coflow-9");
    }

    @Test
    void duplicateIdsAreRejected() {
        rejects(() -> ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.of(5, 1, 0, 1, 1)).flow(Flow.of(5, 1, 1, 0, 2)).build(),
                "duplicate flow id flow-5", "coflow-1");
        rejects(() -> ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0)).coflow(Coflow.of(1, 3))
                .flow(Flow.of(5, 1, 0, 1, 1)).build(),
                "duplicate coflow id coflow-1");
    }

    @Test
    void hostOrLinkIndexOutOfRangeIsRejected() {
        rejects(() -> ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 2, 1)).build(),
                "flow-1 (coflow-1)", "0->2", "outside the network's 2 hosts");
        rejects(() -> ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 7, 0, 1)).build(),
                "flow-1 (coflow-1)", "7->0", "outside the network's 2 hosts");
        rejects(() -> flow(1, 1, -1, 0), "flow-1 (coflow-1)", "host indices must be >= 0", "-1->0");
        Network oneLink = Network.builder().host("a", 1, 1).host("b", 1, 1).link("L", 1).build();
        rejects(() -> ClusterState.builder(oneLink).coflow(Coflow.of(1, 0))
                .flow(flow(1, 1, 0, 1).size(1).path(0, 1).build()).build(),
                "flow-1 (coflow-1)", "link 1 outside the network's 1 links");
        rejects(() -> flow(1, 1, 0, 1).path(-1), "flow-1", "link index must be >= 0", "-1");
        rejects(() -> ClusterState.builder(oneLink).linkEstimate(1, 0.5), "link index 1 out of range [0, 1)");
        rejects(() -> ClusterState.builder(oneLink).linkEstimate(0, -0.5), "estimate of link(L)", "-0.5");
        rejects(() -> ClusterState.builder(oneLink).now(Double.NaN), "now must be finite", "NaN");
    }

    // ---- decisions ----

    private static ClusterState twoFlows() {
        return ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 1, 1)).flow(Flow.of(2, 1, 1, 0, 1)).build();
    }

    @Test
    void nanOrNegativeRatesAreRejected() {
        ClusterState s = twoFlows();
        rejects(() -> Decision.ofRates(s, new double[] {0.5, Double.NaN}), "rate of flow-2",
                "finite number >= 0", "NaN");
        rejects(() -> Decision.ofRates(s, new double[] {-0.25, 0.5}), "rate of flow-1", "-0.25");
        rejects(() -> Decision.ofRates(s, new double[] {Double.POSITIVE_INFINITY, 0}), "rate of flow-1", "Infinity");
        rejects(() -> Decision.ofRates(s, new double[] {1}), "rate array has 1 entries for 2 flows");
        Map<FlowId, Double> m = new HashMap<>();
        m.put(FlowId.of(7), Double.NaN);
        rejects(() -> Decision.ofRates(m), "rate of flow-7", "NaN");
        m.put(FlowId.of(7), -1.0);
        rejects(() -> Decision.ofRates(m), "rate of flow-7", "-1.0");
        m.put(FlowId.of(7), null);
        rejects(() -> Decision.ofRates(m), "rate of flow-7", "null");
    }

    /**
     * An adopted array is checked like a copied one, and its finished flows read exactly +0.0 whatever the scheduler
     * left there (-0.0 and NaN included): the engine reads such an array in place.
     */
    @Test
    void adoptedRatesAreCheckedAndFinishedFlowsSetToPositiveZero() {
        ClusterState s = twoFlows();
        rejects(() -> Decision.ofOwnedRates(s, new double[] {0.5, Double.NaN}), "rate of flow-2", "NaN");
        rejects(() -> Decision.ofOwnedRates(s, new double[] {-0.25, 0.0}), "rate of flow-1", "-0.25");
        rejects(() -> Decision.ofOwnedRates(s, new double[] {0.0, Double.POSITIVE_INFINITY}), "rate of flow-2",
                "Infinity");
        Network net = Network.uniform(2, 1);
        ClusterState done = ClusterState.builder(net).coflow(Coflow.of(1, 0)).flow(Flow.of(1, 1, 0, 1, 1))
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(1), 1, 0).size(1).sent(1).finished(true).build())
                .flow(Flow.builder(FlowId.of(3), CoflowId.of(1), 0, 1).size(1).sent(1).finished(true).build())
                .flow(Flow.builder(FlowId.of(4), CoflowId.of(1), 0, 1).size(1).sent(1).finished(true).build())
                .build();
        double[] own = Decision.ofOwnedRates(done, new double[] {0.5, -0.0, Double.NaN, 2.0}).ratesMadeOn(done);
        assertEquals(0.5, own[0]);
        for (int i = 1; i < 4; i++) {
            assertEquals(0L, Double.doubleToRawLongBits(own[i]), "finished flow " + (i + 1) + " reads +0.0");
        }
    }

    /** A flow's amount lands on its host ports, and on a network with links on the links of its path too. */
    @Test
    void addToResourcesCoversEveryResourceOfTheFlow() {
        ClusterState bigSwitch = twoFlows();
        double[] used = new double[bigSwitch.network().resourceCount()];
        bigSwitch.addToResources(0, 0.5, used);
        bigSwitch.addToResources(1, 0.25, used);
        Network n = bigSwitch.network();
        assertEquals(0.5, used[n.up(0)]);
        assertEquals(0.5, used[n.down(1)]);
        assertEquals(0.25, used[n.up(1)]);
        assertEquals(0.25, used[n.down(0)]);
        Network withLink = Network.builder().host("a", 1, 1).host("b", 1, 1).link("L", 1).build();
        ClusterState s = ClusterState.builder(withLink).coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).size(1).path(0).build()).build();
        double[] onLinks = new double[withLink.resourceCount()];
        s.addToResources(0, 0.75, onLinks);
        double[] expected = new double[withLink.resourceCount()];
        expected[withLink.up(0)] = 0.75;
        expected[withLink.down(1)] = 0.75;
        expected[withLink.link(0)] = 0.75;
        assertArrayEquals(expected, onLinks);
    }

    /**
     * A driver may read a rate-based decision's array in place only on the snapshot it was made on (or a view of it):
     * there finished flows are 0 and the rest were checked; any other state, even one with the same flows, gets null.
     */
    @Test
    void ratesMadeOnIsTheCheckedArrayOfItsOwnSnapshotOnly() {
        Network net = Network.uniform(2, 1);
        ClusterState s = ClusterState.builder(net).coflow(Coflow.of(1, 0)).flow(Flow.of(1, 1, 0, 1, 1))
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(1), 1, 0).size(1).sent(1).finished(true).build())
                .build();
        Decision d = Decision.ofOwnedRates(s, new double[] {0.5, 0.7});
        double[] own = d.ratesMadeOn(s);
        assertEquals(0.5, own[0]);
        assertEquals(0.0, own[1], "a finished flow's rate is 0");
        assertSame(own, d.ratesMadeOn(s.withSizesHidden()));
        ClusterState same = ClusterState.builder(net).coflow(Coflow.of(1, 0)).flows(s.flows()).build();
        assertEquals(null, d.ratesMadeOn(same), "another snapshot, though of the same flows");
        assertEquals(null, Decision.ofRates(Collections.singletonMap(FlowId.of(1), 0.5)).ratesMadeOn(s));
        assertEquals(null, Decision.ofOrder(Collections.singletonList(CoflowId.of(1)),
                Collections.<FlowId, Integer>emptyMap()).ratesMadeOn(s));
    }

    @Test
    void duplicateCoflowInAnOrderIsRejected() {
        rejects(() -> Decision.ofOrder(Arrays.asList(CoflowId.of(1), CoflowId.of(2), CoflowId.of(1)),
                Collections.<FlowId, Integer>emptyMap()), "coflow coflow-1 appears twice in the order");
    }

    @Test
    void negativePriorityIsRejected() {
        Map<FlowId, Integer> p = new HashMap<>();
        p.put(FlowId.of(1), 0);
        p.put(FlowId.of(2), -1);
        rejects(() -> Decision.ofOrder(Collections.singletonList(CoflowId.of(1)), p),
                "priority of flow-2 must be >= 0", "-1");
    }

    @Test
    void rankPrioritiesNeedActiveCoflowsAndAtLeastOneLevel() {
        ClusterState s = twoFlows();
        rejects(() -> Decision.ofOrderWithRankPriorities(s, Arrays.asList(CoflowId.of(1), CoflowId.of(3)), 8),
                "coflow-3", "not active");
        rejects(() -> Decision.ofOrderWithRankPriorities(s, Collections.singletonList(CoflowId.of(1)), 0),
                "priority levels must be >= 1", "0");
    }

    // ---- information hiding ----

    @Test
    void aNonClairvoyantViewHidesSizeAndRemaining() {
        ClusterState s = ClusterState.builder(Network.uniform(2, 1)).coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).size(10).sent(4).build())
                .flow(Flow.builder(FlowId.of(2), CoflowId.of(1), 1, 0).size(3).sent(3).finished(true).build())
                .build();
        ClusterState view = s.viewFor(EnumSet.of(Info.WEIGHTS, Info.MEASURED_RATES));
        assertFalse(view.sizesVisible());
        for (int i = 0; i < view.flowCount(); i++) {
            Flow f = view.flow(i);
            HiddenInformationException size = assertThrows(HiddenInformationException.class, f::size);
            assertTrue(size.getMessage().contains("size of " + f.id()) && size.getMessage().contains("Info.SIZES"),
                    size.getMessage());
            HiddenInformationException rem = assertThrows(HiddenInformationException.class, f::remaining);
            assertTrue(rem.getMessage().contains(f.id().toString()), rem.getMessage());
            assertFalse(f.hasSize());
        }
        // What every scheduler may read stays readable.
        assertEquals(4.0, view.flow(0).sent());
        assertTrue(view.flow(1).finished());
        assertEquals(7.0, view.sentBy(0));
        // A clairvoyant scheduler gets the state itself.
        assertSame(s, s.viewFor(EnumSet.of(Info.SIZES)));
        assertEquals(6.0, s.viewFor(EnumSet.of(Info.SIZES)).flow(0).remaining());
    }

    @Test
    void anUnknownSizeIsNotReportedAsHidden() {
        Flow f = flow(1, 1, 0, 1).unknownSize().build();
        IllegalStateException e = assertThrows(IllegalStateException.class, f::size);
        assertFalse(e instanceof HiddenInformationException, "an unknown size is not hidden information");
        assertTrue(e.getMessage().contains("size of flow-1 (coflow-1) is unknown"), e.getMessage());
    }

    private static Flow.Builder flow(long id, long coflow, int src, int dst) {
        return Flow.builder(FlowId.of(id), CoflowId.of(coflow), src, dst);
    }
}
