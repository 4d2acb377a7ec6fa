package io.courier.simulator.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Raises the load of a workload by compressing its arrival times: every arrival becomes {@code arrival / K}
 * (PAPER_RESULTS.md §6, item 3: {@code K ∈ {1, 2, 4, 8, 16}}). Sizes and the network stay, so the offered
 * load grows by {@code K}; {@code K = 1} returns the workload unchanged and {@code K < 1} spreads it out.
 */
public final class LoadScaling {
    private LoadScaling() {
    }

    public static Workload compress(Workload workload, double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("load scale factor K must be finite and > 0, got " + factor);
        }
        if (factor == 1) {
            return workload;
        }
        List<WorkloadCoflow> out = new ArrayList<>(workload.coflows().size());
        for (WorkloadCoflow c : workload.coflows()) {
            out.add(c.withArrival(c.arrival() / factor));
        }
        return workload.withCoflows(workload.name() + " (arrivals / " + factor + ")", out);
    }
}
