package io.courier.shuffle.reduce;

import io.courier.shuffle.service.ProxyPortRule;
import io.courier.shuffle.service.ServiceMetadata;
import org.apache.hadoop.yarn.util.AuxiliaryServiceHelper;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Finding the node's proxy from the container environment as the NodeManager writes it. */
class LocalProxyEndpointTest {
    private static Map<String, String> env(byte[] metadata, String nmHost) {
        Map<String, String> env = new HashMap<>();
        AuxiliaryServiceHelper.setServiceDataIntoEnv(LocalProxyEndpoint.SHUFFLE_SERVICE, ByteBuffer.wrap(metadata),
                env);
        if (nmHost != null) {
            env.put(LocalProxyEndpoint.NM_HOST, nmHost);
        }
        return env;
    }

    private static byte[] courier(int shufflePort, int proxyPort, ProxyPortRule rule, int paddedTo) {
        byte[] b = new ServiceMetadata(shufflePort, proxyPort, rule).encode().array();
        return Arrays.copyOf(b, Math.max(b.length, paddedTo));
    }

    @Test
    void courierMetadataPaddedLikeTheNodeManagerPadsItIsDecoded() {
        LocalProxyEndpoint e = LocalProxyEndpoint.fromEnvironment(env(courier(13562, 13563,
                ProxyPortRule.offset(1), 32), "node7.example"));
        assertEquals("node7.example", e.host());
        assertEquals(13563, e.port());
        assertEquals("node7.example:13563", e.address());
        assertEquals(ProxyPortRule.offset(1), e.metadata().rule());
        assertEquals(13562, e.metadata().shufflePort());
    }

    @Test
    void aPlainShuffleHandlerOrNoMetadataMeansNoCourier() {
        assertNull(LocalProxyEndpoint.fromEnvironment(env(ByteBuffer.allocate(4).putInt(0, 13562).array(), "n")));
        assertNull(LocalProxyEndpoint.fromEnvironment(env(new byte[32], "n")), "padding without the magic");
        assertNull(LocalProxyEndpoint.fromEnvironment(new HashMap<String, String>()));
    }

    @Test
    void courierMetadataWithoutTheNodeHostOrInAnUnknownVersionIsAClearError() {
        IllegalArgumentException noHost = assertThrows(IllegalArgumentException.class,
                () -> LocalProxyEndpoint.fromEnvironment(env(courier(1000, 2000, ProxyPortRule.fixed(2000), 24),
                        null)));
        assertTrue(noHost.getMessage().contains(LocalProxyEndpoint.NM_HOST), noHost.getMessage());
        byte[] v9 = courier(1000, 2000, ProxyPortRule.fixed(2000), 24);
        v9[11] = 9; // version int
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> LocalProxyEndpoint.fromEnvironment(env(v9, "n")));
        assertTrue(bad.getMessage().contains("NM_AUX_SERVICE_mapreduce_shuffle"), bad.getMessage());
    }

    @Test
    void theRuleGivesEachSourceNodesProxyFromItsShufflePort() {
        HostRoutes offset = new HostRoutes(ProxyPortRule.offset(7));
        assertEquals("h1:13569", offset.sourceProxy("h1:13562"));
        HostRoutes fixed = new HostRoutes(ProxyPortRule.fixed(9000));
        assertEquals("h2:9000", fixed.sourceProxy("h2:13562"));
        assertThrows(IllegalArgumentException.class, () -> fixed.sourceProxy("nohostport"));
        assertTrue(new HostRoutes(null).isHttp("h1:13562"), "no Courier on this node: every host over HTTP");
        assertTrue(fixed.markHttpOnly("h2:13562"));
        assertTrue(fixed.isHttp("h2:13562"));
    }
}
