package io.courier.scheduler.w2a;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.Bssi;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weighted {@code (2 − 2/(n+1))}-approximation of seed 004, Alg. 1 (SCHEDULERS.md §10): the order
 * {@code γ} is BSSI (P6, {@link Bssi}) on the coflows' <em>original</em> total sizes and weights; the
 * driver enforces it with E1 PriorityGreedy.
 *
 * <p>The algorithm is offline: all coflows are known at time 0 and {@code γ} is computed once. A
 * scheduler, however, only sees the coflows active at each call. This one remembers every coflow it has
 * ever seen (its total loads and weight) and computes {@code γ} over all of them, finished ones
 * included, whenever a coflow appears for the first time (or a known coflow shows more flows); at every
 * other call {@code γ} stays fixed, restricted to the active coflows. When all coflows are present at the
 * first call — the offline setting — this is exactly the offline {@code γ}, computed once. With later
 * arrivals a newcomer ranks where BSSI over the whole instance seen so far puts it, and it may re-rank
 * earlier coflows; sizes are never residual, which is what separates this from Sincronia (§5).
 *
 * <p>Stateful (coflows seen, {@code γ}); memory {@code O(coflows seen · hosts)}; each re-computation
 * costs {@code O(n·(H + n))}. One instance per driver, on one network.
 */
public final class WeightedTwoApproxScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "weighted-2approx";

    private static final Comparator<Coflow> ARRIVAL_THEN_ID =
            Comparator.comparingDouble(Coflow::arrival).thenComparing(Coflow::id);

    private final Map<CoflowId, TotalLoads> seen = new HashMap<>();
    private List<CoflowId> gamma = Collections.emptyList();
    private int hosts = -1;

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "seed 004 Alg. 1: BSSI on total sizes and weights of all coflows seen, fixed order, E1 greedy",
                Collections.emptyList(),
                p -> new WeightedTwoApproxScheduler());
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
    public Enforcement enforcement() {
        return Enforcement.PRIORITY_GREEDY;
    }

    @Override
    public Decision schedule(ClusterState state) {
        int h = state.network().hostCount();
        if (hosts < 0) {
            hosts = h;
        } else if (hosts != h) {
            throw new IllegalStateException("scheduler '" + NAME + "': the network changed from " + hosts + " to " + h
                    + " hosts; one instance keeps the loads of one network (SCHEDULERS.md §10)");
        }
        boolean changed = false;
        for (int c = 0; c < state.coflowCount(); c++) {
            TotalLoads known = seen.get(state.coflow(c).id());
            // Finished flows stay in the state, so a coflow's flow count only grows (multi-wave traces).
            if (known == null || state.flowsOf(c).length > known.flowCount()) {
                seen.put(state.coflow(c).id(), TotalLoads.of(state, c, NAME));
                changed = true;
            }
        }
        if (changed) {
            gamma = computeGamma();
        }
        List<CoflowId> active = new ArrayList<>(state.coflowCount());
        for (CoflowId id : gamma) {
            if (state.indexOf(id) >= 0) {
                active.add(id);
            }
        }
        return Decision.ofOrderWithRankPriorities(state, active, Integer.MAX_VALUE);
    }

    private List<CoflowId> computeGamma() {
        List<TotalLoads> items = new ArrayList<>(seen.values());
        // Bssi breaks Select ties by input position (latest arrival, then largest id, goes last).
        items.sort((a, b) -> ARRIVAL_THEN_ID.compare(a.coflow(), b.coflow()));
        double[][] load = new double[items.size()][];
        double[] weight = new double[items.size()];
        for (int k = 0; k < load.length; k++) {
            load[k] = items.get(k).load();
            weight[k] = items.get(k).coflow().weight();
        }
        int[] sigma = Bssi.order(load, weight);
        List<CoflowId> out = new ArrayList<>(sigma.length);
        for (int k : sigma) {
            out.add(items.get(k).coflow().id());
        }
        return Collections.unmodifiableList(out);
    }

    /** {@code γ} over every coflow seen so far, highest priority first. */
    public List<CoflowId> gamma() {
        return gamma;
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Double.POSITIVE_INFINITY; // γ changes only when a new coflow shows up, which is a trigger anyway
    }
}
