package io.courier.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulationDefaultsTest {
    @Test
    void everyOverrideNamesARealParameterWithAValidValueAndAReason() {
        SchedulerRegistry registry = SchedulerRegistry.standard();
        for (SimulationDefaults.Setting s : SimulationDefaults.standard().overrides()) {
            // throws if the scheduler, the parameter or the value is not valid
            registry.create(s.scheduler(), Collections.singletonMap(s.parameter(), s.value()));
            assertTrue(s.reason().length() > 20, s.toString());
        }
    }

    @Test
    void userValuesWin() {
        SimulationDefaults d = SimulationDefaults.standard();
        assertEquals(Collections.singletonMap("epoch", "Infinity"),
                d.apply("aalo", Collections.<String, String>emptyMap()));
        Map<String, String> given = Collections.singletonMap("epoch", "0.01");
        assertEquals(given, d.apply("aalo", given));
        assertTrue(d.applicable("aalo", given).isEmpty());
        assertFalse(d.applicable("aalo", Collections.singletonMap("queues", "4")).isEmpty());
        assertTrue(d.apply("fair", Collections.<String, String>emptyMap()).isEmpty());
    }
}
