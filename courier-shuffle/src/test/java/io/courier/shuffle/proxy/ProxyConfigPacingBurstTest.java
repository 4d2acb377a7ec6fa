package io.courier.shuffle.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;

import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import org.junit.jupiter.api.Test;

/** {@code courier.proxy.pacing.burst.bytes}: parsed, checked, and the depth of every paced connection's bucket. */
class ProxyConfigPacingBurstTest {
    @Test
    void defaultsToFourBlocks() {
        assertEquals(4L * 64 * 1024, ProxyConfig.defaults().pacingBurst());
        assertEquals(4.0 * 64 * 1024, new SendScheduler("n:1", 1, 0).pacingBurstBytes());
    }

    @Test
    void isReadFromProperties() {
        ProxyConfig c = ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.PACING_BURST, " 65536 "));
        assertEquals(65536L, c.pacingBurst());
    }

    @Test
    void refusesZeroAndNonNumbersNamingTheKey() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.PACING_BURST, "0")));
        assertTrue(zero.getMessage().contains(ProxyConfig.PACING_BURST), zero.getMessage());
        IllegalArgumentException word = assertThrows(IllegalArgumentException.class,
                () -> ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.PACING_BURST, "lots")));
        assertTrue(word.getMessage().contains(ProxyConfig.PACING_BURST), word.getMessage());
    }

    @Test
    void reachesTheProxysSendScheduler() throws Exception {
        ProxyConfig c = ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.PACING_BURST, "65536"));
        try (CourierProxy proxy = new CourierProxy(c, new InMemorySecrets(), (job, map) -> null)) {
            proxy.start();
            assertEquals(65536.0, proxy.scheduler().pacingBurstBytes());
        }
    }
}
