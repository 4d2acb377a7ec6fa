package io.courier.scheduler.fai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Fai's registration: defaults of SCHEDULERS.md §6 and rejection of out-of-range parameters. */
class FaiRegistryTest {

    @Test
    void registeredWithSpecDefaults() {
        CoflowScheduler s = SchedulerRegistry.standard().create("fai");
        assertEquals("fai", s.name());
        assertEquals(SchedulerType.RATE_BASED, s.type());
        assertTrue(s.needs().isEmpty());
        assertEquals("fai(K=10, strict, epoch=0.01)", s.toString());
        FaiScheduler fai = (FaiScheduler) s;
        assertEquals(0, fai.queueOf(10485760 - 1));
        assertEquals(1, fai.queueOf(10485760));
        assertEquals(2, fai.queueOf(104857600));
    }

    @Test
    void rejectsBadParameters() {
        rejects("queues", "0", "queues");
        rejects("queues", "ten", "queues");
        rejects("epoch", "-1", "epoch");
        rejects("epoch", "0", "epoch");
        rejects("interQueue", "foo", "interQueue");
        rejects("multiplier", "1", "multiplier");
        rejects("multiplier", "Infinity", "multiplier E");
        rejects("firstThreshold", "0", "firstThreshold");
        rejects("bytesTolerance", "-1e-6", "bytesTolerance");
        rejects("bandwidthTolerance", "NaN", "bandwidthTolerance");
        rejects("Queues", "10", "unknown parameter");
    }

    private static void rejects(String name, String value, String mentioned) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchedulerRegistry.standard().create("fai", Collections.singletonMap(name, value)));
        assertTrue(e.getMessage().contains(mentioned) && e.getMessage().contains("fai"),
                name + "=" + value + ": " + e.getMessage());
    }
}
