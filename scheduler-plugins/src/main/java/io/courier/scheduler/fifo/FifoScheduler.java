package io.courier.scheduler.fifo;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.MaddWorkConserving;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Coflow-level first-in-first-out (SCHEDULERS.md §2). In {@code madd} mode (CoflowSim's FIFO, Orchestra's
 * FIFO with weighted shuffle scheduling) coflows in arrival order get MADD rates plus work conservation,
 * which needs sizes. In {@code greedy} mode it is an order-based scheduler enforced with E1 that needs
 * nothing but arrival order.
 */
public final class FifoScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "fifo";

    /** How the FIFO order becomes rates. */
    public enum Mode { MADD, GREEDY }

    private final Mode mode;

    public FifoScheduler(Mode mode) {
        this.mode = mode;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "coflows in arrival order (MADD + work conservation, or greedy)",
                Collections.singletonList(ParameterSpec.choice("mode", "madd",
                        "[code] madd: CoflowSim FIFO (MADD + work conservation, clairvoyant); "
                                + "greedy: FIFO_GREEDY, order enforced with E1, no sizes needed",
                        "madd", "greedy")),
                p -> new FifoScheduler("greedy".equals(p.getChoice("mode")) ? Mode.GREEDY : Mode.MADD));
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
        return mode == Mode.MADD ? SchedulerType.RATE_BASED : SchedulerType.ORDER_BASED;
    }

    @Override
    public Set<Info> needs() {
        return mode == Mode.MADD ? EnumSet.of(Info.SIZES) : EnumSet.noneOf(Info.class);
    }

    @Override
    public Decision schedule(ClusterState state) {
        // The state already lists active coflows by (arrival, id): that is the FIFO order.
        if (mode == Mode.MADD) {
            int[] order = new int[state.coflowCount()];
            for (int c = 0; c < order.length; c++) {
                order[c] = c;
            }
            return Decision.ofOwnedRates(state, MaddWorkConserving.rates(state, order));
        }
        List<CoflowId> order = new ArrayList<>(state.coflowCount());
        for (int c = 0; c < state.coflowCount(); c++) {
            order.add(state.coflow(c).id());
        }
        return Decision.ofOrderWithRankPriorities(state, order, Integer.MAX_VALUE);
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Double.POSITIVE_INFINITY; // the order changes only when coflows arrive or leave
    }
}
