package io.courier.scheduler.planning;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Courier's per-source-host agent loop (seed 000 Alg. 1): when the scheduled list changes, merge it by
 * node pair and select/split the network flows to start; when it has not changed, keep the running set.
 *
 * <p>Not thread-safe: one planner belongs to one sending node's scheduling thread.
 */
public final class CourierPlanner {
    private final PlanningMode mode;
    private final SelectAndSplit selector;
    private List<PlannedFlow> last = Collections.emptyList();
    private List<UnifiedFlow> active = Collections.emptyList();

    public CourierPlanner(PlanningMode mode, int maxNum, double minSize) {
        this.mode = mode;
        this.selector = new SelectAndSplit(maxNum, minSize);
    }

    /** The network flows to run for this scheduled list (recomputed only when the list changed). */
    public List<UnifiedFlow> plan(List<PlannedFlow> scheduled) {
        if (!scheduled.equals(last)) {
            last = Collections.unmodifiableList(new ArrayList<>(scheduled));
            active = Collections.unmodifiableList(selector.apply(Merge.merge(last, mode)));
        }
        return active;
    }

    public PlanningMode mode() {
        return mode;
    }
}
