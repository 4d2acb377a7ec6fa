package io.courier.simulator.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.simulator.workload.Workload;
import io.courier.simulator.workload.WorkloadCoflow;
import io.courier.simulator.workload.WorkloadFlow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The spec's fixtures through the simulator: the same CCTs as the schedulers' own unit tests. */
class FluidSimulatorTest {
    private static final double EPS = 1e-9;

    private static CoflowScheduler create(String name, String... kv) {
        Map<String, String> p = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        return SchedulerRegistry.standard().create(name, p);
    }

    private static SimulationResult run(Scenario sc, CoflowScheduler s, SimulationOptions o) {
        return FluidSimulator.run(ScenarioWorkloads.of(sc), s, s.name(), o, ProgressListener.NONE);
    }

    /** A rate-based scheduler that gives every unfinished flow {@code rate} and asks for no wake-up. */
    private static CoflowScheduler fixedRates(String name, double rate) {
        return new CoflowScheduler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public SchedulerType type() {
                return SchedulerType.RATE_BASED;
            }

            @Override
            public Set<Info> needs() {
                return EnumSet.noneOf(Info.class);
            }

            @Override
            public Decision schedule(ClusterState state) {
                double[] rates = new double[state.flowCount()];
                for (int f : state.unfinishedFlows()) {
                    rates[f] = rate;
                }
                return Decision.ofRates(state, rates);
            }

            @Override
            public double nextWakeup(ClusterState state, Decision decision) {
                return Double.POSITIVE_INFINITY;
            }
        };
    }

    private static void assertCcts(Scenario sc, SimulationResult r, Object... nameAndCct) {
        for (int i = 0; i < nameAndCct.length; i += 2) {
            assertEquals(((Number) nameAndCct[i + 1]).doubleValue(),
                    ScenarioWorkloads.cct(sc, r, (String) nameAndCct[i]), EPS, "CCT of " + nameAndCct[i]);
        }
    }

    @Test
    void specFixturesGiveTheSpecCcts() {
        SimulationOptions o = SimulationOptions.defaults();
        Scenario fai1 = Fixtures.fai1();
        assertCcts(fai1, run(fai1, create("fair"), o), "C1", 4, "C2", 5, "C3", 4);
        assertCcts(fai1, run(fai1, create("aalo", "firstThreshold", "4"), o), "C1", 4, "C2", 5, "C3", 5);
        assertCcts(fai1, run(fai1, create("fai", "firstThreshold", "4"), o), "C1", 4, "C2", 5, "C3", 4);
        assertCcts(fai1, run(fai1, create("sincronia"), o), "C1", 3, "C2", 5, "C3", 3);
        Scenario v1 = Fixtures.v1();
        assertCcts(v1, run(v1, create("varys"), o), "A", 4, "B", 1);
        assertCcts(v1, run(v1, create("fifo"), o), "A", 4, "B", 2);
        Scenario v3 = Fixtures.v3();
        assertCcts(v3, run(v3, create("varys"), o), "A", 5, "B", 1, "C", 1);
        assertCcts(v3, run(v3, create("fifo", "mode", "greedy"), o), "A", 4, "B", 4, "C", 4);
        assertCcts(v3, run(v3, create("iaoa", "period", "0.5"), o), "A", 5, "B", 1, "C", 1);
        Scenario s3 = Fixtures.s3(4, 1, 1);
        assertCcts(s3, run(s3, create("sincronia"), o), "C3", 2, "C1", 3, "C2", 4);
        assertCcts(s3, run(s3, create("weighted-2approx"), o), "C3", 2, "C1", 3, "C2", 4);
    }

    /** Arrivals during service and a demotion threshold crossed between arrivals (T-AALO-3). */
    @Test
    void multiEventDemotion() {
        Scenario v3 = Fixtures.v3();
        SimulationResult r = run(v3, create("aalo", "firstThreshold", "2"), SimulationOptions.defaults());
        assertCcts(v3, r, "A", 5, "B", 2, "C", 2);
        SimulationResult noDemotion = run(v3, create("aalo", "firstThreshold", "100"), SimulationOptions.defaults());
        assertCcts(v3, noDemotion, "A", 4, "B", 4, "C", 4);
    }

    /** One reducer on r fetching 1 unit from each of three mappers; capacity 1. */
    private static Scenario threeFetches() {
        return Scenario.unitCapacity()
                .coflow("J", 0).flow("m1", "r", 1).flow("m2", "r", 1).flow("m3", "r", 1)
                .build();
    }

    private static Workload oneReducer(Scenario sc) {
        Workload w = ScenarioWorkloads.of(sc);
        List<WorkloadFlow> flows = new ArrayList<>();
        int m = 0;
        for (WorkloadFlow f : w.coflows().get(0).flows()) {
            flows.add(new WorkloadFlow(f.src(), f.dst(), f.bytes(), 0, m++));
        }
        return w.withCoflows("one reducer", Collections.singletonList(
                new WorkloadCoflow(1, 0, 1, flows)));
    }

    @Test
    void hadoopFetchModelLimitsConcurrentFetchesPerReducer() {
        Workload w = oneReducer(threeFetches());
        SimulationResult unlimited = FluidSimulator.run(w, create("fair"), "fair", SimulationOptions.defaults(),
                ProgressListener.NONE);
        SimulationResult oneAtATime = FluidSimulator.run(w, create("fair"), "fair",
                SimulationOptions.defaults().withParallelCopies(1), ProgressListener.NONE);
        assertEquals(3.0, unlimited.coflows().get(0).cct(), EPS);
        assertEquals(3.0, oneAtATime.coflows().get(0).cct(), EPS);
        assertEquals(3, unlimited.concurrency().max());
        assertEquals(1, oneAtATime.concurrency().max());
        assertEquals(3, oneAtATime.decisions()); // the fetches run one after another
    }

    /**
     * Two fetches a→b and one c→b. Per-flow fairness gives each a third of down(b); with Courier the two
     * a→b fetches share one connection, which gets half: c→b finishes at 2 instead of 3.
     */
    @Test
    void courierMergesFetchesOfOnePairIntoOneConnection() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("A", 0).flow("a", "b", 1).flow("a", "b", 1)
                .coflow("C", 0).flow("c", "b", 1)
                .build();
        SimulationResult perFlow = run(sc, create("fair"), SimulationOptions.defaults());
        SimulationResult merged = run(sc, create("fair"), SimulationOptions.defaults().withCourier(true));
        assertCcts(sc, perFlow, "A", 3, "C", 3);
        assertCcts(sc, merged, "A", 3, "C", 2);
        assertEquals(3, perFlow.concurrency().max());
        assertEquals(2, merged.concurrency().max());
    }

    /** MaxNum = 1: a host runs one network flow at a time, most important first (Varys rates: the smaller). */
    @Test
    void maxFlowsPerHostSerializesPairs() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("A", 0).flow("s", "x", 2)
                .coflow("B", 0).flow("s", "y", 1)
                .build();
        SimulationResult r = run(sc, create("fifo", "mode", "greedy"),
                SimulationOptions.defaults().withCourier(true).withMaxFlows(1));
        assertCcts(sc, r, "A", 2, "B", 3);
        assertEquals(1, r.concurrency().max());
    }

    @Test
    void admissionEpochsAdmitEarlyAndMeasureFromAdmission() {
        Scenario sc = Scenario.unitCapacity()
                .coflow("A", 0).flow("s", "x", 1)
                .coflow("B", 15).flow("t", "y", 1)
                .build();
        SimulationResult r = run(sc, create("fair"), SimulationOptions.defaults().withAdmissionEpoch(10));
        assertEquals(10.0, r.coflows().get(1).arrival(), EPS);
        assertCcts(sc, r, "A", 1, "B", 1);
    }

    /**
     * One coflow, a→x (1) and a→y (3) sharing up(a). Flow triggers give a→y all of up(a) once a→x is done
     * (CCT 4); coflow triggers, like CoflowSim, keep its half rate until the coflow ends (CCT 6).
     */
    @Test
    void coflowTriggersKeepRatesUntilACoflowEvent() {
        Scenario sc = Scenario.unitCapacity().coflow("A", 0).flow("a", "x", 1).flow("a", "y", 3).build();
        SimulationResult exact = run(sc, create("fair"), SimulationOptions.defaults());
        SimulationResult coflowSim = run(sc, create("fair"), SimulationOptions.defaults().withTriggers(Triggers.COFLOW));
        assertCcts(sc, exact, "A", 4);
        assertCcts(sc, coflowSim, "A", 6);
        assertEquals(2, exact.decisions());
        assertEquals(1, coflowSim.decisions());
    }

    /** A scheduler that pauses everything and asks for no wake-up is reported, not looped on. */
    @Test
    void stallIsReportedWithContext() {
        CoflowScheduler idle = fixedRates("idle", 0.0);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> run(Fixtures.v1(), idle, SimulationOptions.defaults()));
        assertTrue(e.getMessage().contains("stalls at t=0"), e.getMessage());
    }

    /**
     * A scheduler whose rates exceed a port is stopped with the port, the time and the sums named: on a big switch
     * (the engine reads the flows' host ports from the state's columns) and in a network with an extra link (read
     * through each flow's resources).
     */
    @Test
    void overbookingIsReportedWithTheResource() {
        CoflowScheduler greedy = fixedRates("greedy", 0.75);
        Scenario bigSwitch = Scenario.unitCapacity().hosts("a", "b", "x", "y").coflow("A", 0)
                .flow("a", "x", 1).flow("b", "x", 1).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> run(bigSwitch, greedy, SimulationOptions.defaults()));
        assertTrue(e.getMessage().contains("overbooks down(x) at t=0"), e.getMessage());
        assertTrue(e.getMessage().contains("1.5 > capacity 1.0"), e.getMessage());

        // A network with an extra link (which the simulator's flows do not cross): each flow's resources are read.
        Scenario withLink = Scenario.unitCapacity().hosts("a", "b", "x", "y").link("L", 1).coflow("A", 0)
                .flow("a", "y", 1).flow("a", "x", 1).build();
        e = assertThrows(IllegalStateException.class, () -> run(withLink, greedy, SimulationOptions.defaults()));
        assertTrue(e.getMessage().contains("overbooks up(a) at t=0"), e.getMessage());
    }
}
