package io.courier.scheduler.iaoa;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Simple-offline, Alg. 2 of seed 004 (the clairvoyant companion of IAOA, SCHEDULERS.md §9): coflows
 * in ascending {@code L^C / w_C}, where {@code L^C} is the largest port load of the coflow's
 * <em>total</em> flow sizes; rates from Alg. 4 ({@link GreedyCoflowAllocation}).
 *
 * <p>Registered on its own rather than as an option of {@code weighted-2approx}: with Alg. 4 rates it is
 * rate-based, while the 2-approximation is order-based. The key of a coflow depends only on its own
 * total sizes and weight, so sorting the active coflows at every call gives the same relative order
 * as sorting all coflows once up front: the offline order restricted to who is active. No state.
 */
public final class SimpleOfflineScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "simple-offline";

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "seed 004 Alg. 2: clairvoyant weighted order by total length / weight, greedy per-coflow rates",
                Collections.emptyList(),
                p -> new SimpleOfflineScheduler());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Keeps nothing from a state past the call (only ids and numbers): drivers may recycle states. */
    @Override
    public boolean retainsStates() {
        return false;
    }

    @Override
    public SchedulerType type() {
        return SchedulerType.RATE_BASED;
    }

    @Override
    public Set<Info> needs() {
        return EnumSet.of(Info.SIZES, Info.WEIGHTS);
    }

    @Override
    public Decision schedule(ClusterState state) {
        int[] order = AlphaOrder.order(state, AlphaOrder.totalSizeAlphas(state));
        return Decision.ofOwnedRates(state, GreedyCoflowAllocation.allocate(state, order));
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Double.POSITIVE_INFINITY; // the decision changes only when flows or coflows come or go
    }
}
