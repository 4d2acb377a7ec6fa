package io.courier.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/** The benchmark's wiring, called directly (not through JMH) on the synthetic snapshot. */
class ScheduleBenchmarkTest {

    @Test
    void fairScheduleAndRatesRunOnTheSnapshot() throws Exception {
        ScheduleBenchmark b = new ScheduleBenchmark();
        b.scheduler = "fair";
        b.snapshot = "synthetic";
        b.setUp();
        Decision d = b.schedule();
        assertEquals(SchedulerType.RATE_BASED, d.type());
        double[] rates = b.scheduleToRates();
        BenchmarkSnapshot s = Snapshots.synthetic(Snapshots.SEED);
        assertEquals(s.state().flowCount(), rates.length);
        double total = 0;
        for (int f = 0; f < rates.length; f++) {
            if (s.state().flow(f).finished()) {
                assertEquals(0, rates[f], 0);
            }
            total += rates[f];
        }
        assertTrue(total > 0, "fair allocates bandwidth");
    }

    /** The default @Param list must follow the registry, or a new scheduler would silently go unmeasured. */
    @Test
    void theDefaultSchedulerListIsEveryRegisteredScheduler() throws Exception {
        Param p = ScheduleBenchmark.class.getField("scheduler").getAnnotation(Param.class);
        assertEquals(SchedulerRegistry.standard().names(), Arrays.asList(p.value()));
    }

    @Test
    void unknownSchedulerNameFailsItsTrialWithTheKnownNames() {
        ScheduleBenchmark b = new ScheduleBenchmark();
        b.scheduler = "no-such-scheduler";
        b.snapshot = "synthetic";
        IllegalStateException e = assertThrows(IllegalStateException.class, b::setUp);
        assertTrue(e.getMessage().contains("'no-such-scheduler' is not registered"), e.getMessage());
        assertTrue(e.getMessage().contains("fair"), e.getMessage());
    }

    @Test
    void unknownSnapshotKindIsRejected() {
        ScheduleBenchmark b = new ScheduleBenchmark();
        b.scheduler = "fair";
        b.snapshot = "weekly";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::setUp);
        assertTrue(e.getMessage().contains("valid: auto, fb, synthetic"), e.getMessage());
    }
}
