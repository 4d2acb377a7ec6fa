package io.courier.scheduler.bench;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one scheduling decision on a snapshot at FB-trace scale ({@link Snapshots}). Per trial the
 * snapshot is built once and a fresh scheduler is created from the registry; the scheduler sees
 * {@code state.viewFor(needs())}, as a driver would hand it.
 *
 * <ul>
 *   <li>{@link #schedule}: one {@code schedule(view)} call.</li>
 *   <li>{@link #scheduleToRates}: the call plus {@link OrderEnforcer#rates}, i.e. what a driver needs before
 *       it can pace flows. For order-based schedulers that adds the enforcer (E1/E2); for rate-based ones
 *       only the lookup of each flow's rate in the decision.</li>
 * </ul>
 * Stateful schedulers are called repeatedly on the same state, so a scheduler that caches work between
 * calls on an unchanged state is measured with its cache warm.
 *
 * <p>Names the registry of this build does not know fail the trial in setup with a message saying so;
 * JMH reports that trial as failed and goes on with the others.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
// A fixed heap: the FB snapshot holds ~230 000 flows, and heap resizing would add noise.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ScheduleBenchmark {

    /** Registry name of the scheduler under test. */
    @Param({"fair", "fifo", "varys", "aalo", "sincronia", "fai", "stream", "skipl", "iaoa", "simple-offline",
            "weighted-2approx"})
    public String scheduler;

    /** {@code auto} (the FB trace if found, else synthetic), {@code fb} or {@code synthetic}. */
    @Param({"auto"})
    public String snapshot;

    private CoflowScheduler instance;
    private ClusterState state;
    private ClusterState view;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SchedulerRegistry registry = SchedulerRegistry.standard();
        if (!registry.names().contains(scheduler)) {
            throw new IllegalStateException("scheduler '" + scheduler + "' is not registered in this build, so its "
                    + "trial is skipped; SchedulerRegistry.standard() knows: " + String.join(", ", registry.names())
                    + " (choose with -p scheduler=<names>)");
        }
        BenchmarkSnapshot s = Snapshots.load(snapshot);
        System.out.println("snapshot: " + s.describe());
        state = s.state();
        instance = registry.create(scheduler);
        view = state.viewFor(instance.needs());
    }

    @Benchmark
    public Decision schedule() {
        return instance.schedule(view);
    }

    @Benchmark
    public double[] scheduleToRates() {
        Decision d = instance.schedule(view);
        // The driver holds the full state; enforcement needs no sizes but is not the scheduler's view.
        return OrderEnforcer.rates(state, d, instance.enforcement());
    }
}
