package io.courier.shuffle.proxy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;

import org.junit.jupiter.api.Test;

/** The proxy's switches take {@code true} or {@code false} (any case) and refuse anything else, naming the key. */
class ProxyConfigBooleanTest {
    @Test
    void transferToTakesTrueOrFalse() {
        assertTrue(ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.TRANSFER_TO, "TRUE")).transferTo());
        assertFalse(ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.TRANSFER_TO, " false "))
                .transferTo());
    }

    @Test
    void aMisspeltSwitchIsRefusedInsteadOfReadAsFalse() {
        for (String key : new String[] {ProxyConfig.TRANSFER_TO, ProxyConfig.RELAY_ALLOW_REMOTE}) {
            for (String bad : new String[] {"yes", "ture", "1"}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> ProxyConfig.fromProperties(Collections.singletonMap(key, bad)));
                assertTrue(e.getMessage().contains(key) && e.getMessage().contains(bad), e.getMessage());
            }
        }
    }
}
