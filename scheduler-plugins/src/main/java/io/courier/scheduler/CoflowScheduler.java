package io.courier.scheduler;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import java.util.Set;

/**
 * A coflow scheduler (SCHEDULERS.md §0.3). The same implementation runs in the simulator and in the
 * coordinator: a driver calls {@link #schedule} at every coflow arrival, every flow or coflow completion
 * and at {@link #nextWakeup}; rates stay constant in between.
 *
 * <p>Threading: an instance may keep internal state across calls (Stream's levels, SkipL's estimates,
 * IAOA's cached order), so one instance belongs to one driver and is called from one thread at a time.
 * Drivers hand it the state returned by {@link ClusterState#viewFor(Set)} with {@link #needs()}.
 */
public interface CoflowScheduler {

    /** The registry name, e.g. {@code varys}. */
    String name();

    SchedulerType type();

    /** What the scheduler reads beyond identities, endpoints and bytes sent. */
    Set<Info> needs();

    /** The decision for this instant: a pure function of the state and the scheduler's own state. */
    Decision schedule(ClusterState state);

    /**
     * The absolute time at which the scheduler wants to be called again even if nothing arrives or
     * completes (an epoch end, a queue-threshold crossing); {@code Double.POSITIVE_INFINITY} for none.
     */
    double nextWakeup(ClusterState state, Decision decision);

    /**
     * A driver's shortcut past a wake-up that cannot change the decision. A driver may call this instead
     * of {@link #schedule} at an instant {@code now} equal to the last wake-up this scheduler asked for
     * ({@link #nextWakeup} or this method) only when, since the last {@link #schedule} call, the network
     * was quiet: no coflow arrived or left, no flow started or finished, and every flow sent at exactly
     * the rate that last decision gave it (the simulator without Courier's planning; the coordinator
     * never calls this, it calls {@link #schedule} every epoch).
     *
     * <p>Returns the next wake-up instant when the scheduler can prove that {@link #schedule} at
     * {@code now} would return the same decision again — it then advances its own state as that call
     * would have, and the driver keeps the previous decision's rates — or NaN when the driver must call
     * {@link #schedule}. The default is NaN: no proof, no shortcut. A proof may be conservative (NaN
     * where the decision would in fact stand), never optimistic.
     */
    default double skipWakeup(double now) {
        return Double.NaN;
    }

    /**
     * Called once by a driver that will use {@link #skipWakeup}, before its first {@link #schedule}. Only then
     * does a scheduler spend time at each decision proving how long it stands: a driver that calls
     * {@link #schedule} at every wake-up (the coordinator) pays nothing for the shortcut.
     */
    default void enableWakeupSkips() {
    }

    /**
     * Whether this scheduler may keep a state it was handed — or anything that reads it later: a
     * {@link Decision} made on it, its flow list, its index arrays — past the call that handed it over.
     * A driver may recycle a state's storage for the next decision (a reusable
     * {@code ColumnarStateBuilder}) only when this is false. The default is the safe answer, true; a
     * scheduler that keeps only ids, numbers and its own objects between calls overrides it.
     */
    default boolean retainsStates() {
        return true;
    }

    /** How a driver turns this scheduler's order-based decisions into rates. */
    default Enforcement enforcement() {
        return Enforcement.PRIORITY_GREEDY;
    }

    /** Order enforcers of SCHEDULERS.md §0.3; ignored for rate-based schedulers. */
    enum Enforcement {
        /** E1: coflows in order, flows by id, each flow takes the residual minimum of its resources. */
        PRIORITY_GREEDY,
        /** E2: per priority class, max-min over the class's flows on the residual capacity. */
        PRIORITY_CLASS_MAX_MIN
    }
}
