package io.courier.scheduler.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.fair.FairScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The claims table covers the registry and agrees with what each scheduler declares, and each check of
 * {@link Invariants} fails on a hand-made violation (so the properties cannot pass vacuously).
 */
class SchedulerClaimsTest {

    @Test
    void everyRegisteredSchedulerHasClaims() {
        Set<String> claimed = new LinkedHashSet<>();
        for (SchedulerClaims c : SchedulerClaims.table()) {
            claimed.add(c.name());
        }
        List<String> missing = new ArrayList<>();
        for (String name : SchedulerRegistry.standard().names()) {
            if (!claimed.contains(name)) {
                missing.add(name);
            }
        }
        assertTrue(missing.isEmpty(), "registered schedulers without claims: " + missing
                + " - add an entry per configuration to SchedulerClaims.table() (its Javadoc lists what each "
                + "scheduler should claim), otherwise the generic properties never run on them");
    }

    @Test
    void everyClaimsEntryNamesARegisteredConfiguration() {
        SchedulerRegistry registry = SchedulerRegistry.standard();
        for (SchedulerClaims c : SchedulerClaims.table()) {
            assertTrue(registry.names().contains(c.name()), "claims entry " + c + " names no registered scheduler; "
                    + "registered: " + registry.names());
            assertEquals(c.name(), c.create().name(), "claims entry " + c + " creates a scheduler of another name");
        }
    }

    @Test
    void claimsAgreeWithWhatSchedulersDeclare() {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            CoflowScheduler s = c.create();
            assertEquals(c.type(), s.type(), "type of " + c);
            assertEquals(c.isClairvoyant(), s.needs().contains(Info.SIZES),
                    c + ": claimed clairvoyant=" + c.isClairvoyant() + " but needs() = " + s.needs());
            if (c.type() == SchedulerType.ORDER_BASED) {
                assertEquals(c.enforcement(), s.enforcement(), "enforcer of " + c);
            }
        }
    }

    @Test
    void theTableCoversTheFairVariants() {
        Map<String, SchedulerClaims> byLabel = new HashMap<>();
        for (SchedulerClaims c : SchedulerClaims.table()) {
            byLabel.put(c.toString(), c);
        }
        assertEquals(SchedulerClaims.WorkConservation.ON_CAPACITIES, byLabel.get("fair").workConservation());
        assertEquals(SchedulerClaims.WorkConservation.NOT_CLAIMED,
                byLabel.get("fair{coflowsim=true}").workConservation());
    }

    // ---- the checks fail on violations ----

    /** T-FAIR-1's network: f1 a→x, f2 a→y, f3 b→y, f4 c→y, one coflow, unit capacities. */
    private static ClusterState tFair1() {
        int a = 0, b = 1, c = 2, x = 3, y = 4;
        return ClusterState.builder(Network.uniform(5, 1.0))
                .coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, a, x, 10)).flow(Flow.of(2, 1, a, y, 10))
                .flow(Flow.of(3, 1, b, y, 10)).flow(Flow.of(4, 1, c, y, 10))
                .build();
    }

    @Test
    void capacityCheckNamesTheOverloadedResource() {
        ClusterState s = tFair1();
        AssertionError e = assertThrows(AssertionError.class,
                () -> Invariants.withinCapacity("test", s, new double[] {0.5, 0.5, 0.5, 0.1}, true));
        assertTrue(e.getMessage().contains("down(h4) is over capacity") && e.getMessage().contains("1.1"),
                e.getMessage());
        Invariants.withinCapacity("test", s, new double[] {2.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3}, true);
    }

    @Test
    void linkCapacityIsCheckedUnlessTheEntryIgnoresLinks() {
        Network n = Network.builder().host("a", 1, 1).host("b", 1, 1).link("L", 0.25).build();
        ClusterState s = ClusterState.builder(n).coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).size(1).path(0).build()).build();
        AssertionError e = assertThrows(AssertionError.class,
                () -> Invariants.withinCapacity("test", s, new double[] {0.5}, true));
        assertTrue(e.getMessage().contains("link(L) is over capacity"), e.getMessage());
        Invariants.withinCapacity("test", s, new double[] {0.5}, false);
    }

    @Test
    void rateCheckRejectsNaNAndNegativeEnforcedRates() {
        ClusterState s = tFair1();
        Decision d = Decision.ofRates(Collections.<FlowId, Double>emptyMap());
        AssertionError e = assertThrows(AssertionError.class,
                () -> Invariants.ratesAreNonNegativeNumbers("test", s, d, new double[] {0, Double.NaN, 0, 0}));
        assertTrue(e.getMessage().contains("flow-2") && e.getMessage().contains("NaN"), e.getMessage());
        e = assertThrows(AssertionError.class,
                () -> Invariants.ratesAreNonNegativeNumbers("test", s, d, new double[] {0, 0, -1e-3, 0}));
        assertTrue(e.getMessage().contains("flow-3"), e.getMessage());
    }

    @Test
    void accountingCheckNamesTheForgottenFlow() {
        ClusterState s = tFair1();
        Map<FlowId, Double> rates = new HashMap<>();
        rates.put(FlowId.of(1), 0.5);
        rates.put(FlowId.of(2), 0.5);
        rates.put(FlowId.of(4), 0.0);
        AssertionError e = assertThrows(AssertionError.class,
                () -> Invariants.everyUnfinishedFlowAccountedFor("test", s, Decision.ofRates(rates)));
        assertTrue(e.getMessage().contains("[flow-3]"), e.getMessage());
        rates.put(FlowId.of(3), 0.0);
        rates.put(FlowId.of(99), 0.0);
        e = assertThrows(AssertionError.class,
                () -> Invariants.everyUnfinishedFlowAccountedFor("test", s, Decision.ofRates(rates)));
        assertTrue(e.getMessage().contains("flow-99"), e.getMessage());
        Map<FlowId, Integer> prio = new HashMap<>();
        prio.put(FlowId.of(1), 0);
        Decision order = Decision.ofOrder(Collections.singletonList(CoflowId.of(1)), prio);
        e = assertThrows(AssertionError.class, () -> Invariants.everyUnfinishedFlowAccountedFor("test", s, order));
        assertTrue(e.getMessage().contains("priority") && e.getMessage().contains("flow-4"), e.getMessage());
    }

    @Test
    void permutationCheckRejectsMissingAndInactiveCoflows() {
        ClusterState s = ClusterState.builder(Network.uniform(2, 1.0))
                .coflow(Coflow.of(1, 0)).coflow(Coflow.of(2, 0))
                .flow(Flow.of(1, 1, 0, 1, 1)).flow(Flow.of(2, 2, 1, 0, 1)).build();
        Map<FlowId, Integer> prio = Collections.emptyMap();
        AssertionError e = assertThrows(AssertionError.class, () -> Invariants.orderIsPermutationOfActiveCoflows(
                "test", s, Decision.ofOrder(Collections.singletonList(CoflowId.of(2)), prio)));
        assertTrue(e.getMessage().contains("leaves out active coflows [coflow-1]"), e.getMessage());
        e = assertThrows(AssertionError.class, () -> Invariants.orderIsPermutationOfActiveCoflows("test", s,
                Decision.ofOrder(Arrays.asList(CoflowId.of(2), CoflowId.of(1), CoflowId.of(7)), prio)));
        assertTrue(e.getMessage().contains("coflow-7, which is not active"), e.getMessage());
        Invariants.orderIsPermutationOfActiveCoflows("test", s,
                Decision.ofOrder(Arrays.asList(CoflowId.of(2), CoflowId.of(1)), prio));
    }

    /** FAIR_COFLOWSIM on T-FAIR-1 leaves slack: f1 = 1/2 while up(a) keeps 1/6 and down(x) 1/2. */
    @Test
    void workConservationCheckCatchesTheCoflowSimFairSlack() {
        ClusterState s = tFair1();
        double[] slack = rates(s, new FairScheduler(true).schedule(s.withSizesHidden()));
        AssertionError e = assertThrows(AssertionError.class,
                () -> Invariants.workConserving("fair{coflowsim=true}", s, slack, s.residualCapacities(false)));
        assertTrue(e.getMessage().contains("flow-1") && e.getMessage().contains("not work-conserving"), e.getMessage());
        Invariants.workConserving("fair", s, rates(s, new FairScheduler(false).schedule(s.withSizesHidden())),
                s.residualCapacities(false));
    }

    @Test
    void workConservationOnLinkEstimatesCountsALinkFullAtItsEstimate() {
        Network n = Network.builder().host("a", 1, 1).host("b", 1, 1).link("L", 1.0).build();
        ClusterState s = ClusterState.builder(n).linkEstimate(0, 0.4).coflow(Coflow.of(1, 0))
                .flow(Flow.builder(FlowId.of(1), CoflowId.of(1), 0, 1).size(1).path(0).build()).build();
        double[] rate = {0.4};
        Invariants.workConserving("test", s, rate, s.residualCapacities(true));
        assertThrows(AssertionError.class, () -> Invariants.workConserving("test", s, rate, s.residualCapacities(false)));
    }

    @Test
    void sameDecisionCheckSeesADifferentRate() {
        Map<FlowId, Double> r1 = new HashMap<>();
        r1.put(FlowId.of(1), 0.5);
        Map<FlowId, Double> r2 = new HashMap<>();
        r2.put(FlowId.of(1), 0.5000001);
        AssertionError e = assertThrows(AssertionError.class,
                () -> Invariants.sameDecision("test", "why", Decision.ofRates(r1), Decision.ofRates(r2)));
        assertTrue(e.getMessage().contains("decisions differ"), e.getMessage());
        Invariants.sameDecision("test", "why", Decision.ofRates(r1), Decision.ofRates(new HashMap<>(r1)));
    }

    @Test
    void wakeupCheckRejectsNaNAndThePast() {
        ClusterState s = ClusterState.builder(Network.uniform(2, 1.0)).now(5).coflow(Coflow.of(1, 0))
                .flow(Flow.of(1, 1, 0, 1, 1)).build();
        assertThrows(AssertionError.class, () -> Invariants.wakeupNotInThePast("test", s, Double.NaN));
        assertThrows(AssertionError.class, () -> Invariants.wakeupNotInThePast("test", s, 4.999));
        assertThrows(AssertionError.class, () -> Invariants.wakeupNotInThePast("test", s, Double.NEGATIVE_INFINITY));
        Invariants.wakeupNotInThePast("test", s, 5);
        Invariants.wakeupNotInThePast("test", s, Double.POSITIVE_INFINITY);
    }

    private static double[] rates(ClusterState s, Decision d) {
        double[] r = new double[s.flowCount()];
        for (int i = 0; i < r.length; i++) {
            r[i] = d.rateOf(s.flow(i).id());
        }
        return r;
    }
}
