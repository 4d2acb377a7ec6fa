package io.courier.scheduler.varys;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.MaddWorkConserving;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Varys (SCHEDULERS.md §3): Smallest-Effective-Bottleneck-First ordering, MADD rates, and CoflowSim's
 * two-step work conservation. Clairvoyant. Starvation avoidance and deadlines of the Varys paper are
 * not implemented, as in CoflowSim.
 */
public final class VarysScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "varys";

    private final boolean staticKey;

    /** @param staticKey order by Γ of total sizes (CoflowSim's admission-time key) instead of remaining bytes */
    public VarysScheduler(boolean staticKey) {
        this.staticKey = staticKey;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "SEBF order + MADD rates + work conservation (clairvoyant)",
                Collections.singletonList(ParameterSpec.bool("staticKey", false,
                        "[code] CoflowSim's SEBFComparator: Γ of total sizes at full capacity, fixed at admission")),
                p -> new VarysScheduler(p.getBoolean("staticKey")));
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
        return EnumSet.of(Info.SIZES);
    }

    @Override
    public Decision schedule(ClusterState state) {
        return Decision.ofOwnedRates(state, MaddWorkConserving.rates(state, SebfOrder.order(state, staticKey)));
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        // Under MADD the key of a served coflow falls at rate 1 and no other key falls faster, so the
        // order can only change at arrivals and completions (spec §3, triggers).
        return Double.POSITIVE_INFINITY;
    }
}
