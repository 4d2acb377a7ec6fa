package io.courier.scheduler.properties;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;

/**
 * One call of a fresh scheduler instance on a state, as a driver makes it: the scheduler sees
 * {@code state.viewFor(needs())}, its decision is enforced on the full state with its own enforcer, and
 * it is asked for its next wake-up. A scheduler that throws (including {@code HiddenInformationException}
 * for reading what it did not declare) fails the property with the configuration named.
 */
final class Outcome {
    final SchedulerClaims claims;
    final CoflowScheduler scheduler;
    final ClusterState state;
    final Decision decision;
    final double[] rate;
    final double wakeup;

    private Outcome(SchedulerClaims claims, CoflowScheduler scheduler, ClusterState state, Decision decision,
            double[] rate, double wakeup) {
        this.claims = claims;
        this.scheduler = scheduler;
        this.state = state;
        this.decision = decision;
        this.rate = rate;
        this.wakeup = wakeup;
    }

    static Outcome of(SchedulerClaims claims, ClusterState state) {
        CoflowScheduler s = claims.create();
        try {
            ClusterState view = state.viewFor(s.needs());
            Decision d = s.schedule(view);
            double[] rate = OrderEnforcer.rates(state, d, s.enforcement());
            double wakeup = s.nextWakeup(view, d);
            return new Outcome(claims, s, state, d, rate, wakeup);
        } catch (RuntimeException e) {
            throw new AssertionError(claims + " failed on " + state + ": " + e, e);
        }
    }

    /** The configuration, for messages. */
    String who() {
        return claims.toString();
    }
}
