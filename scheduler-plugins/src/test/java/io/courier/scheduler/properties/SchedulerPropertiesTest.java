package io.courier.scheduler.properties;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.SchedulerType;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;

/**
 * Generic properties of every scheduler configuration in {@link SchedulerClaims#table()}, on random
 * states ({@link RandomStates}). Each property runs all configurations on every generated state, so every
 * scheduler sees the same 200 states per property, and a falsified sample names the configuration.
 * Every call uses fresh scheduler instances, as a new driver would.
 */
class SchedulerPropertiesTest {
    private static final int TRIES = 200;

    @Provide
    Arbitrary<GeneratedState> states() {
        return RandomStates.states();
    }

    /** (1) After enforcement no port or link carries more than its capacity. */
    @Property(tries = TRIES)
    void noResourceOverCapacity(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            Outcome o = Outcome.of(c, g.state());
            Invariants.withinCapacity(o.who(), o.state, o.rate, c.respectsExtraLinks());
        }
    }

    /** (2) No rate is negative, NaN or infinite, neither in the decision nor after enforcement. */
    @Property(tries = TRIES)
    void noNegativeOrNaNRate(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            Outcome o = Outcome.of(c, g.state());
            Invariants.ratesAreNonNegativeNumbers(o.who(), o.state, o.decision, o.rate);
        }
    }

    /** (3) Every unfinished flow gets a rate (rate-based) or a priority (order-based); type as claimed. */
    @Property(tries = TRIES)
    void everyUnfinishedFlowIsAccountedFor(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            Outcome o = Outcome.of(c, g.state());
            if (o.decision.type() != c.type()) {
                throw new AssertionError(o.who() + ": claims " + c.type() + " decisions but returned "
                        + o.decision.type());
            }
            Invariants.everyUnfinishedFlowAccountedFor(o.who(), o.state, o.decision);
        }
    }

    /** (4) An order-based decision orders every active coflow exactly once. */
    @Property(tries = TRIES)
    void orderIsAPermutationOfTheActiveCoflows(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            if (c.type() == SchedulerType.ORDER_BASED) {
                Outcome o = Outcome.of(c, g.state());
                Invariants.orderIsPermutationOfActiveCoflows(o.who(), o.state, o.decision);
            }
        }
    }

    /** (5) Configurations that claim work conservation leave no unfinished flow with a free path. */
    @Property(tries = TRIES)
    void workConservingWhereClaimed(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            if (c.workConservation() == SchedulerClaims.WorkConservation.NOT_CLAIMED) {
                continue;
            }
            Outcome o = Outcome.of(c, g.state());
            boolean estimates = c.workConservation() == SchedulerClaims.WorkConservation.ON_LINK_ESTIMATES;
            Invariants.workConserving(o.who(), o.state, o.rate, o.state.residualCapacities(estimates));
        }
    }

    /**
     * (6) Information hiding: a non-clairvoyant configuration decides (and wakes up) identically when only the
     * sizes of unfinished flows change.
     */
    @Property(tries = TRIES)
    void nonClairvoyantDecisionsDoNotDependOnSizes(@ForAll("states") GeneratedState g,
            @ForAll @Size(min = 1, max = 16) List<@DoubleRange(min = 0.01, max = 100.0) @Scale(4) Double> factors) {
        ClusterState resized = g.withUnfinishedSizesScaled(factors);
        for (SchedulerClaims c : SchedulerClaims.table()) {
            if (c.isClairvoyant()) {
                continue;
            }
            Outcome a = Outcome.of(c, g.state());
            Outcome b = Outcome.of(c, resized);
            Invariants.sameDecision(a.who(), "only the sizes of unfinished flows changed", a.decision, b.decision);
            if (Double.compare(a.wakeup, b.wakeup) != 0) {
                throw new AssertionError(a.who() + ": nextWakeup depends on sizes: " + a.wakeup + " vs " + b.wakeup);
            }
        }
    }

    /** (7) The wake-up time is never in the past and never NaN. */
    @Property(tries = TRIES)
    void nextWakeupIsNowOrLaterOrInfinite(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            Outcome o = Outcome.of(c, g.state());
            Invariants.wakeupNotInThePast(o.who(), o.state, o.wakeup);
        }
    }

    /** (8) Determinism: two fresh instances decide identically on the same state. */
    @Property(tries = TRIES)
    void freshInstancesDecideIdentically(@ForAll("states") GeneratedState g) {
        for (SchedulerClaims c : SchedulerClaims.table()) {
            Outcome a = Outcome.of(c, g.state());
            Outcome b = Outcome.of(c, g.state());
            Invariants.sameDecision(a.who(), "two fresh instances saw the same state", a.decision, b.decision);
            if (Double.compare(a.wakeup, b.wakeup) != 0) {
                throw new AssertionError(a.who() + ": nextWakeup differs between fresh instances: " + a.wakeup
                        + " vs " + b.wakeup);
            }
        }
    }
}
