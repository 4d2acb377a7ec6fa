package io.courier.simulator.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.simulator.workload.SyntheticMapReduce;
import io.courier.simulator.workload.Workload;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine recycles one state's storage across decisions for schedulers that keep no state past a call
 * ({@link CoflowScheduler#retainsStates()} false). Every standard scheduler must give exactly the results
 * it gives on a fresh state per decision — which is what it gets when it says it retains states.
 */
@Timeout(120)
class RecycledStatesTest {
    private static final Workload WORKLOAD = SyntheticMapReduce
            .parse("hosts=6,reducersPerHost=2,jobs=12,mappers=2-6,reducers=2-6,load=0.8,seed=5").generate();

    /** Delegates everything, but claims to retain states, so the engine builds a fresh one per decision. */
    private static final class Retaining implements CoflowScheduler {
        private final CoflowScheduler inner;

        Retaining(CoflowScheduler inner) {
            this.inner = inner;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public SchedulerType type() {
            return inner.type();
        }

        @Override
        public Set<Info> needs() {
            return inner.needs();
        }

        @Override
        public Decision schedule(ClusterState state) {
            return inner.schedule(state);
        }

        @Override
        public double nextWakeup(ClusterState state, Decision decision) {
            return inner.nextWakeup(state, decision);
        }

        @Override
        public Enforcement enforcement() {
            return inner.enforcement();
        }
    }

    @Test
    void everyStandardSchedulerGivesTheSameResultsOnRecycledStates() {
        SchedulerRegistry registry = SchedulerRegistry.standard();
        SimulationOptions[] variants = {
            SimulationOptions.defaults(),
            SimulationOptions.defaults().withTriggers(Triggers.COFLOW),
            SimulationOptions.defaults().withParallelCopies(2),
            SimulationOptions.defaults().withCourier(true),
        };
        for (String name : registry.names()) {
            assertFalse(registry.create(name).retainsStates(), name + " should keep no state past a call");
            for (SimulationOptions o : variants) {
                SimulationResult recycled = FluidSimulator.run(WORKLOAD, registry.create(name), name, o,
                        ProgressListener.NONE);
                SimulationResult fresh = FluidSimulator.run(WORKLOAD, new Retaining(registry.create(name)), name, o,
                        ProgressListener.NONE);
                String what = name + " with " + o;
                assertEquals(fresh.decisions(), recycled.decisions(), what + ": decisions");
                assertEquals(fresh.concurrency().max(), recycled.concurrency().max(), what + ": max flows per port");
                assertEquals(fresh.concurrency().mean(), recycled.concurrency().mean(), 0.0, what + ": mean flows");
                assertEquals(fresh.coflows().size(), recycled.coflows().size(), what);
                assertTrue(fresh.coflows().size() > 0, what);
                for (int i = 0; i < fresh.coflows().size(); i++) {
                    assertEquals(fresh.coflows().get(i).id(), recycled.coflows().get(i).id(), what + ": completion order");
                    assertEquals(fresh.coflows().get(i).finish(), recycled.coflows().get(i).finish(), 0.0,
                            what + ": finish of coflow " + fresh.coflows().get(i).id());
                }
            }
        }
    }
}
