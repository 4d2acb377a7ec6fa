package io.courier.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlannedSchedulerTest {
    private static PlannedScheduler plan(String entry, boolean compat) {
        return PlannedScheduler.plan(SchedulerSpec.parseList(entry).get(0), compat, SimulationDefaults.standard(),
                SchedulerRegistry.standard());
    }

    @Test
    void aaloRunsWithoutEpochUnlessTheUserSetsOne() {
        PlannedScheduler a = plan("aalo", false);
        assertEquals("aalo", a.label());
        assertEquals(Collections.singletonMap("epoch", "Infinity"), a.parameters());
        assertEquals("Infinity", a.effectiveParameters().get("epoch"));
        assertEquals("10", a.effectiveParameters().get("queues"));
        assertEquals(1, a.notes().size());
        assertTrue(a.notes().get(0).startsWith("epoch=Infinity (simulator default: in a fluid model"), a.notes().get(0));
        assertEquals("aalo", a.create().name());

        PlannedScheduler b = plan("aalo(epoch=0.5)", false);
        assertEquals("aalo(epoch=0.5)", b.label());
        assertEquals("0.5", b.effectiveParameters().get("epoch"));
        assertTrue(b.notes().isEmpty());
    }

    @Test
    void coflowSimVariantsForBareNamesOnly() {
        assertEquals("true", plan("fair", true).effectiveParameters().get("coflowsim"));
        assertEquals("true", plan("varys", true).effectiveParameters().get("staticKey"));
        PlannedScheduler aalo = plan("aalo", true);
        assertEquals("true", aalo.effectiveParameters().get("coflowsim"));
        assertEquals("Infinity", aalo.effectiveParameters().get("epoch"));
        assertEquals("aalo", aalo.label());
        assertEquals("coflowsim=true (CoflowSim variant, --coflowsim-compat)", aalo.notes().get(0));
        // an entry with parameters is taken as written
        assertEquals("false", plan("aalo(queues=5)", true).effectiveParameters().get("coflowsim"));
        assertEquals("false", plan("fair(coflowsim=false)", true).effectiveParameters().get("coflowsim"));
        // without the mode nothing changes
        assertEquals("false", plan("varys", false).effectiveParameters().get("staticKey"));
        // schedulers CoflowSim does not have are unchanged
        Map<String, String> sincronia = plan("sincronia", true).parameters();
        assertTrue(sincronia.isEmpty(), sincronia.toString());
    }

    @Test
    void registryMessagesBecomeUsageErrors() {
        UsageException unknown = assertThrows(UsageException.class, () -> plan("fiar", false));
        assertTrue(unknown.getMessage().startsWith("unknown scheduler 'fiar'; valid schedulers: fair, fifo, varys, aalo"),
                unknown.getMessage());
        UsageException param = assertThrows(UsageException.class, () -> plan("aalo(queue=3)", false));
        assertTrue(param.getMessage().startsWith("unknown parameter 'queue' for scheduler 'aalo'; valid parameters:"),
                param.getMessage());
        UsageException range = assertThrows(UsageException.class, () -> plan("aalo(queues=0)", false));
        assertEquals("parameter 'queues' of scheduler 'aalo' must be in [1, 64], got 0", range.getMessage());
    }
}
