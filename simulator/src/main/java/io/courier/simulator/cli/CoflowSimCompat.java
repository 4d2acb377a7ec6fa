package io.courier.simulator.cli;

import io.courier.simulator.workload.TraceWorkloads;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code --coflowsim-compat} changes (PAPER_RESULTS.md §0, the CoflowSim conventions), apart from the
 * workload sizing, which the trace conversion does (COFLOWSIM sizing: rack-level ports of 128 MiB/s, each
 * reducer's MB rounded up to a multiple of the mapper count and split evenly over the mappers):
 * <ul>
 *   <li>coflows are admitted in 10 s epochs ({@link #ADMISSION_EPOCH_SECONDS});</li>
 *   <li>the three schedulers CoflowSim implements are replaced by their CoflowSim variants when named
 *       without parameters: {@code fair} → {@code fair(coflowsim=true)}, {@code varys} →
 *       {@code varys(staticKey=true)}, {@code aalo} → {@code aalo(coflowsim=true)}. An entry with any
 *       parameter (even {@code fair(coflowsim=false)}) is taken as written, and other schedulers are
 *       unchanged.</li>
 * </ul>
 */
public final class CoflowSimCompat {
    /** CoflowSim's {@code simulationTimestep} of 10·1024 simulated ms, i.e. 10 s in the trace's CoflowSim time unit. */
    public static final double ADMISSION_EPOCH_SECONDS = TraceWorkloads.COFLOWSIM_ADMISSION_EPOCH;

    private CoflowSimCompat() {
    }

    /** The CoflowSim variant's parameters for a bare scheduler name, or an empty map when there is none. */
    public static Map<String, String> variantParameters(String scheduler) {
        if ("fair".equals(scheduler) || "aalo".equals(scheduler)) {
            return Collections.singletonMap("coflowsim", "true");
        }
        if ("varys".equals(scheduler)) {
            return Collections.singletonMap("staticKey", "true");
        }
        return Collections.emptyMap();
    }

    /** The entry to run in compatible mode: the CoflowSim variant for a bare fair/varys/aalo, else {@code given}. */
    public static SchedulerSpec variant(SchedulerSpec given) {
        if (!given.parameters().isEmpty()) {
            return given;
        }
        Map<String, String> p = variantParameters(given.name());
        return p.isEmpty() ? given : new SchedulerSpec(given.name(), new LinkedHashMap<>(p));
    }
}
