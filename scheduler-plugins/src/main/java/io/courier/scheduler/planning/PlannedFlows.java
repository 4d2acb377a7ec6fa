package io.courier.scheduler.planning;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
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
        Network net = fullState.network();
        List<PlannedFlow> out = new ArrayList<>();
        for (int i = 0; i < fullState.flowCount(); i++) {
            Flow f = fullState.flow(i);
            if (f.finished() || f.src() != srcHost) {
                continue;
            }
            NodePair pair = new NodePair(net.hostName(f.src()), net.hostName(f.dst()));
            double pending = f.remaining();
            if (decision == null) {
                out.add(PlannedFlow.unscheduled(f.id(), pair, pending));
            } else if (decision.type() == SchedulerType.RATE_BASED) {
                out.add(PlannedFlow.withRate(f.id(), pair, pending, decision.rateOf(f.id())));
            } else {
                Integer p = decision.priorities().get(f.id());
                if (p == null) {
                    throw new IllegalArgumentException("order-based decision gives no priority to " + f.id()
                            + " (" + f.coflow() + ", " + pair + ")");
                }
                out.add(PlannedFlow.withRank(f.id(), pair, pending, p));
            }
        }
        return out;
    }
}
