package io.courier.scheduler.planning;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.Network;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the agent's input list L for one source host from a cluster state and a scheduler's decision.
 * Pending bytes are the flow's remaining bytes: the sending agent knows them even when the scheduler is
 * not allowed to (SCHEDULERS.md §0.2), so pass the full state, not a size-hiding view.
 */
public final class PlannedFlows {
    private PlannedFlows() {
    }

    /**
     * The unfinished flows sent by {@code srcHost}; {@code decision == null} means no scheduler
     * ({@link PlanningMode#NONE}). Node names are the network's host names.
     */
    public static List<PlannedFlow> forSource(ClusterState fullState, Decision decision, int srcHost) {
        PlanningMode mode = decision == null ? PlanningMode.NONE : PlanningMode.of(decision.type());
        return bySource(fullState, decision, mode).get(srcHost);
    }

    /**
     * Every sending host's list in one pass over the flows, indexed by host. In {@link PlanningMode#NONE}
     * the decision is ignored (a driver may plan Fair's flows as "no coflow scheduler").
     */
    public static List<List<PlannedFlow>> bySource(ClusterState fullState, Decision decision, PlanningMode mode) {
        Network net = fullState.network();
        List<List<PlannedFlow>> out = new ArrayList<>(net.hostCount());
        for (int h = 0; h < net.hostCount(); h++) {
            out.add(new ArrayList<PlannedFlow>());
        }
        for (int i = 0; i < fullState.flowCount(); i++) {
            Flow f = fullState.flow(i);
            if (f.finished()) {
                continue;
            }
            NodePair pair = new NodePair(net.hostName(f.src()), net.hostName(f.dst()));
            double pending = f.remaining();
            PlannedFlow p;
            if (mode == PlanningMode.NONE) {
                p = PlannedFlow.unscheduled(f.id(), pair, pending);
            } else if (mode == PlanningMode.RATE) {
                p = PlannedFlow.withRate(f.id(), pair, pending, decision.rateOf(f.id()));
            } else {
                Integer rank = decision.priorities().get(f.id());
                if (rank == null) {
                    throw new IllegalArgumentException("order-based decision gives no priority to " + f.id()
                            + " (" + f.coflow() + ", " + pair + ")");
                }
                p = PlannedFlow.withRank(f.id(), pair, pending, rank);
            }
            out.get(f.src()).add(p);
        }
        return out;
    }
}
