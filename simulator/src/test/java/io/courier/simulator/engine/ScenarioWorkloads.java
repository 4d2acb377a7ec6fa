package io.courier.simulator.engine;

import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.testing.Scenario;
import io.courier.simulator.workload.Workload;
import io.courier.simulator.workload.WorkloadCoflow;
import io.courier.simulator.workload.WorkloadFlow;
import java.util.ArrayList;
import java.util.List;

/** Turns the scheduler tests' hand-written scenarios into simulator workloads (every flow its own reducer). */
final class ScenarioWorkloads {
    private ScenarioWorkloads() {
    }

    static Workload of(Scenario sc) {
        List<WorkloadCoflow> coflows = new ArrayList<>();
        for (Coflow c : sc.coflows()) {
            List<WorkloadFlow> flows = new ArrayList<>();
            for (Flow f : sc.flows()) {
                if (f.coflow().equals(c.id())) {
                    flows.add(new WorkloadFlow(f.src(), f.dst(), f.size(), flows.size(), flows.size()));
                }
            }
            coflows.add(new WorkloadCoflow(c.id().value(), c.arrival(), c.weight(), flows));
        }
        return new Workload("scenario", sc.network(), coflows);
    }

    /** The CCT of the named coflow in a result. */
    static double cct(Scenario sc, SimulationResult r, String coflow) {
        long id = sc.coflow(coflow).value();
        for (CoflowResult c : r.coflows()) {
            if (c.id() == id) {
                return c.cct();
            }
        }
        throw new AssertionError("coflow " + coflow + " did not complete");
    }
}
