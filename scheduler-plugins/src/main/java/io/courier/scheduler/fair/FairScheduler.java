package io.courier.scheduler.fair;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.MaxMin;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Fair (SCHEDULERS.md §1): per-flow max-min fair sharing, the "no coflow scheduler" baseline that
 * emulates TCP. The {@code coflowsim} variant reproduces CoflowSim's one-shot, not work-conserving
 * {@code fairShare}: each flow gets the smaller of its two ports' equal shares.
 */
public final class FairScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "fair";

    private final boolean coflowSimCompatible;

    public FairScheduler(boolean coflowSimCompatible) {
        this.coflowSimCompatible = coflowSimCompatible;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "per-flow max-min fair sharing (TCP-like), no coflow awareness",
                Collections.singletonList(ParameterSpec.bool("coflowsim", false,
                        "[code] CoflowSim's FlowSimulator.fairShare: min of cap/n over the two ports, not work-conserving")),
                p -> new FairScheduler(p.getBoolean("coflowsim")));
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
        return EnumSet.noneOf(Info.class);
    }

    @Override
    public Decision schedule(ClusterState state) {
        double[] rate = new double[state.flowCount()];
        int[] active = state.unfinishedFlows();
        double[] residual = state.residualCapacities(false);
        if (coflowSimCompatible) {
            // CoflowSim has only host ports; extra links count the same way so that no resource is overbooked.
            int[] n = new int[residual.length];
            for (int f : active) {
                for (int p : state.resourcesOf(f)) {
                    n[p]++;
                }
            }
            for (int f : active) {
                double r = Double.POSITIVE_INFINITY;
                for (int p : state.resourcesOf(f)) {
                    r = Math.min(r, residual[p] / n[p]);
                }
                rate[f] = r;
            }
        } else {
            MaxMin.fill(state, active, residual, null, rate);
        }
        return Decision.ofOwnedRates(state, rate);
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Double.POSITIVE_INFINITY; // the allocation depends only on which flows are active
    }
}
