package io.courier.scheduler.w2a;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.Flow;

/**
 * The per-port load of one coflow on its <em>original</em> (total) flow sizes, {@code L_C(p)} of
 * SCHEDULERS.md §10, for the 2H host ports (up ports, then down ports). Immutable.
 */
final class TotalLoads {
    private final Coflow coflow;
    private final int flowCount;
    private final double[] load;

    private TotalLoads(Coflow coflow, int flowCount, double[] load) {
        this.coflow = coflow;
        this.flowCount = flowCount;
        this.load = load;
    }

    /** The loads of coflow {@code c} of {@code state}; every flow's total size must be visible. */
    static TotalLoads of(ClusterState state, int c, String scheduler) {
        int hosts = state.network().hostCount();
        double[] load = new double[2 * hosts];
        int[] flows = state.flowsOf(c);
        for (int f : flows) {
            Flow fl = state.flow(f);
            if (!fl.hasSize()) {
                throw new IllegalStateException("scheduler '" + scheduler + "': " + fl.id() + " of " + fl.coflow()
                        + " has no known total size; the offline 2-approximation orders coflows by the total"
                        + " sizes of all their flows (SCHEDULERS.md §10)");
            }
            load[fl.src()] += fl.size();
            load[hosts + fl.dst()] += fl.size();
        }
        return new TotalLoads(state.coflow(c), flows.length, load);
    }

    Coflow coflow() {
        return coflow;
    }

    int flowCount() {
        return flowCount;
    }

    /** The load vector; callers must not modify it. */
    double[] load() {
        return load;
    }
}
