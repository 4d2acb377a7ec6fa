package io.courier.scheduler.sincronia;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.Bssi;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Sincronia (SCHEDULERS.md §5): at every trigger, order the active coflows with BSSI on their remaining
 * loads per port and their weights; a driver enforces the order with E1 (greedy, order-preserving and
 * work-conserving). Clairvoyant. Optionally the priorities are capped at a number of levels, as a
 * switch with that many DSCP queues would need.
 */
public final class SincroniaScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "sincronia";

    private final int levels;
    private final double period;

    /**
     * @param levels priority levels, {@code Integer.MAX_VALUE} for one per coflow
     * @param period re-ordering period in seconds, {@code +∞} for arrivals and completions only
     */
    public SincroniaScheduler(int levels, double period) {
        if (levels < 1) {
            throw new IllegalArgumentException("sincronia: priority levels must be >= 1, got " + levels);
        }
        if (!(period > 0)) {
            throw new IllegalArgumentException("sincronia: period must be > 0 seconds, got " + period);
        }
        this.levels = levels;
        this.period = period;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "BSSI order on remaining loads and weights, greedy enforcement (clairvoyant)",
                Arrays.asList(
                        ParameterSpec.integer("priorityLevels", 0, 0, 1 << 20,
                                "[proposed] cap on priority classes (e.g. 8 DSCP queues); 0 = one per coflow [paper]"),
                        ParameterSpec.positive("period", Double.POSITIVE_INFINITY,
                                "[proposed] periodic re-ordering in seconds (0.1 if enabled); Infinity = events only")),
                p -> new SincroniaScheduler(p.getInt("priorityLevels") == 0 ? Integer.MAX_VALUE : p.getInt("priorityLevels"),
                        p.getDouble("period")));
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
        return SchedulerType.ORDER_BASED;
    }

    @Override
    public Set<Info> needs() {
        return EnumSet.of(Info.SIZES, Info.WEIGHTS);
    }

    @Override
    public Decision schedule(ClusterState state) {
        int n = state.coflowCount();
        // Loads on the 2m ports only (up ports first, then down ports: the BSSI bottleneck tie order). The state
        // keeps them per coflow (read-only here: BSSI does not write them), so only coflows that moved are summed.
        double[][] load = new double[n][];
        double[] weight = new double[n];
        for (int c = 0; c < n; c++) {
            weight[c] = state.coflow(c).weight();
            load[c] = state.remainingPortLoads(c);
        }
        int[] sigma = Bssi.order(load, weight);
        List<CoflowId> order = new ArrayList<>(n);
        for (int c : sigma) {
            order.add(state.coflow(c).id());
        }
        return Decision.ofOrderWithRankPriorities(state, order, levels);
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Double.isInfinite(period) ? Double.POSITIVE_INFINITY : state.now() + period;
    }

    @Override
    public Enforcement enforcement() {
        return Enforcement.PRIORITY_GREEDY;
    }
}
