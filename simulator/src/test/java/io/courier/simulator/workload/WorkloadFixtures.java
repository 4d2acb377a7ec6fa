package io.courier.simulator.workload;

import io.courier.scheduler.model.Network;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Small hand-made workloads for the transformation tests. */
final class WorkloadFixtures {
    private WorkloadFixtures() {
    }

    /** {@code n} coflows with ids 1..n arriving at 0, 1, 2, … s, each one 1-byte flow h0 -> h1. */
    static Workload oneFlowCoflows(int n) {
        List<WorkloadCoflow> coflows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            coflows.add(new WorkloadCoflow(i + 1, i, 1.0,
                    Collections.singletonList(new WorkloadFlow(0, 1, 1.0, 0, 0))));
        }
        return new Workload("fixture", Network.uniform(2, 1.0), coflows);
    }
}
