package io.courier.shuffle.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;

import io.courier.shuffle.proxy.protocol.Wire;
import org.junit.jupiter.api.Test;

/** {@code courier.proxy.send.blocks-per-run}: parsed and checked against the protocol's limit of 16. */
class ProxyConfigBlocksPerRunTest {
    @Test
    void defaultsToTheLongestRunTheProtocolAllows() {
        assertEquals(Wire.MAX_RUN_BLOCKS, ProxyConfig.defaults().blocksPerRun());
        assertEquals(16, Wire.MAX_RUN_BLOCKS);
    }

    @Test
    void isReadFromProperties() {
        ProxyConfig c = ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.BLOCKS_PER_RUN, " 1 "));
        assertEquals(1, c.blocksPerRun());
        assertEquals(4, ProxyConfig.defaults().withBlocksPerRun(4).blocksPerRun());
    }

    @Test
    void refusesRunsOutsideOneToSixteenNamingTheKey() {
        for (String bad : new String[] {"0", "17", "-1", "many"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ProxyConfig.fromProperties(Collections.singletonMap(ProxyConfig.BLOCKS_PER_RUN, bad)));
            assertTrue(e.getMessage().contains(ProxyConfig.BLOCKS_PER_RUN), e.getMessage());
        }
    }
}
