package io.courier.simulator.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.simulator.workload.SyntheticMapReduce;
import io.courier.simulator.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine recycles one state's storage across decisions for schedulers that keep no state past a call
 * ({@link CoflowScheduler#retainsStates()} false), and between two arrivals or departures revises the last state
 * instead of building it whole. Every standard scheduler must see exactly the states (every flow's values) and
 * give exactly the results it gets on a fresh state per decision — which is what it gets when it says it retains
 * states.
 */
@Timeout(120)
class RecycledStatesTest {
    private static final Workload WORKLOAD = SyntheticMapReduce
            .parse("hosts=6,reducersPerHost=2,jobs=12,mappers=2-6,reducers=2-6,load=0.8,seed=5").generate();

    /**
     * Delegates everything, recording a digest of every state it is given (each flow's id, sent bytes, finished
     * flag and rates); claims to retain states when asked to, so that the engine builds a fresh one per decision.
     */
    private static final class Probe implements CoflowScheduler {
        private final CoflowScheduler inner;
        private final boolean retains;
        final List<Long> seen = new ArrayList<>();

        Probe(CoflowScheduler inner, boolean retains) {
            this.inner = inner;
            this.retains = retains;
        }

        @Override
        public boolean retainsStates() {
            return retains;
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
            long h = Double.doubleToLongBits(state.now());
            for (int i = 0; i < state.flowCount(); i++) {
                Flow f = state.flow(i);
                h = 31 * h + f.id().value();
                h = 31 * h + Double.doubleToLongBits(f.sent());
                h = 31 * h + (f.finished() ? 1 : 0);
                h = 31 * h + (f.hasMeasuredRate() ? Double.doubleToLongBits(f.measuredRate()) : -1);
                h = 31 * h + (f.hasLastDesiredRate() ? Double.doubleToLongBits(f.lastDesiredRate()) : -1);
            }
            seen.add(h);
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
                Probe recycledProbe = new Probe(registry.create(name), false);
                Probe freshProbe = new Probe(registry.create(name), true);
                SimulationResult recycled = FluidSimulator.run(WORKLOAD, recycledProbe, name, o, ProgressListener.NONE);
                SimulationResult fresh = FluidSimulator.run(WORKLOAD, freshProbe, name, o, ProgressListener.NONE);
                String what = name + " with " + o;
                assertEquals(freshProbe.seen, recycledProbe.seen, what + ": the states the scheduler was given");
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
