package io.courier.simulator.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.simulator.workload.SyntheticMapReduce;
import io.courier.simulator.workload.Workload;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Skipping a wake-up after a quiet interval ({@link CoflowScheduler#skipWakeup}) must not change a result:
 * every standard scheduler, with and without skipping, completes the same coflows in the same order at the
 * same instants (to floating-point rounding: an interval that is not cut in two adds its bytes in one step)
 * with the same flow counts per port. The workloads are built so that coflows cross the LAS queue
 * thresholds (10 MiB, 100 MiB) while others wait, and MBAB's and IAOA's tests change answer mid-interval.
 */
@Timeout(120)
class QuietWakeupSkipsTest {
    private static final List<Workload> WORKLOADS = Arrays.asList(
            SyntheticMapReduce.parse("hosts=6,reducersPerHost=2,jobs=12,mappers=2-6,reducers=2-6,"
                    + "flowSize=lognormal:mean=8MiB:sigma=1.5,load=0.8,seed=5").generate(),
            SyntheticMapReduce.parse("hosts=5,reducersPerHost=2,jobs=10,mappers=1-4,reducers=1-5,"
                    + "flowSize=lognormal:mean=30MiB:sigma=1,load=0.9,seed=11").generate());
    /** The schedulers that skip, with epochs short enough to give many quiet wake-ups. */
    private static final List<String> SKIPPING = Arrays.asList("aalo", "fai", "iaoa", "stream");

    @Test
    void everyStandardSchedulerGivesTheSameResultsWithAndWithoutSkipping() {
        SchedulerRegistry registry = SchedulerRegistry.standard();
        SimulationOptions[] variants = {
            SimulationOptions.defaults(),
            SimulationOptions.defaults().withTriggers(Triggers.COFLOW),
            SimulationOptions.defaults().withParallelCopies(2).withTriggers(Triggers.COFLOW),
        };
        for (String name : registry.names()) {
            long skippedSomewhere = 0;
            for (Workload w : WORKLOADS) {
                for (SimulationOptions o : variants) {
                    SimulationResult every = FluidSimulator.run(w, registry.create(name), name, o,
                            ProgressListener.NONE);
                    SimulationResult skipping = FluidSimulator.run(w, registry.create(name), name,
                            o.withQuietWakeupSkipping(true), ProgressListener.NONE);
                    String what = name + " on " + w.name() + " with " + o.triggers() + ", "
                            + o.parallelCopies() + " copies";
                    assertSame(every, skipping, what);
                    assertTrue(skipping.decisions() <= every.decisions(), what + ": more decisions when skipping");
                    skippedSomewhere += every.decisions() - skipping.decisions();
                }
            }
            if (SKIPPING.contains(name)) {
                assertTrue(skippedSomewhere > 0, name + " never skipped a wake-up");
            } else {
                assertEquals(0, skippedSomewhere, name + " has no proof to skip with");
            }
        }
    }

    @Test
    void courierPlanningTurnsSkippingOff() {
        Workload w = WORKLOADS.get(0);
        SimulationOptions o = SimulationOptions.defaults().withCourier(true).withTriggers(Triggers.COFLOW);
        for (String name : SKIPPING) {
            SimulationResult every = FluidSimulator.run(w, SchedulerRegistry.standard().create(name), name, o,
                    ProgressListener.NONE);
            SimulationResult skipping = FluidSimulator.run(w, SchedulerRegistry.standard().create(name), name,
                    o.withQuietWakeupSkipping(true), ProgressListener.NONE);
            // Courier's planning applies other rates than the decision's, so no proof holds: identical runs.
            assertEquals(every.decisions(), skipping.decisions(), name);
            for (int i = 0; i < every.coflows().size(); i++) {
                assertEquals(every.coflows().get(i).finish(), skipping.coflows().get(i).finish(), 0.0, name);
            }
        }
    }

    private static void assertSame(SimulationResult every, SimulationResult skipping, String what) {
        assertEquals(every.coflows().size(), skipping.coflows().size(), what);
        assertTrue(every.coflows().size() > 0, what);
        for (int i = 0; i < every.coflows().size(); i++) {
            CoflowResult a = every.coflows().get(i);
            CoflowResult b = skipping.coflows().get(i);
            assertEquals(a.id(), b.id(), what + ": completion order at position " + i);
            assertEquals(a.finish(), b.finish(), 1e-9 * Math.max(1.0, a.finish()), what + ": finish of " + a.id());
        }
        assertEquals(every.concurrency().max(), skipping.concurrency().max(), what + ": max flows per port");
        assertEquals(every.concurrency().mean(), skipping.concurrency().mean(),
                1e-9 * Math.max(1.0, every.concurrency().mean()), what + ": mean flows per port");
    }
}
