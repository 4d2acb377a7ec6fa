package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.service.ProxyPortRule;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProxyConfigsTest {
    private static Configuration conf() {
        Configuration c = new Configuration(false);
        c.set("yarn.nodemanager.address", "localhost:0");
        return c;
    }

    @Test
    void defaultsInsideTheNodeManager() {
        ProxyConfig c = ProxyConfigs.fromHadoop(conf());
        assertEquals("localhost", c.host());
        assertEquals("0.0.0.0", c.bindHost());
        assertEquals(0, c.port());
        assertEquals(ProxyConfig.defaults().streamWindow(), c.streamWindow());
    }

    @Test
    void courierProxyKeysArePassedThrough() {
        Configuration h = conf();
        h.set("courier.proxy.io.threads", "3");
        h.set("courier.proxy.host", "node7.example.com");
        h.set("courier.proxy.bind.host", "10.0.0.7");
        h.set("courier.proxy.port", "-1");
        h.set("courier.proxy.port-offset", "5");
        ProxyConfig c = ProxyConfigs.fromHadoop(h);
        assertEquals(3, c.ioThreads());
        assertEquals("node7.example.com", c.host());
        assertEquals("10.0.0.7", c.bindHost());
    }

    @Test
    void theRelayIsCappedAtHadoopsShuffleConnectionCapUnlessCourierSaysOtherwise() {
        assertEquals(0, ProxyConfigs.fromHadoop(conf()).relayMaxConnections(), "Hadoop's default: no cap");
        Configuration h = conf();
        h.set("mapreduce.shuffle.max.connections", "40");
        assertEquals(40, ProxyConfigs.fromHadoop(h).relayMaxConnections());
        assertEquals(1000, ProxyConfigs.fromHadoop(h).relayRetryAfterMillis(), "Hadoop's Retry-After");
        h.set("courier.proxy.relay.max-connections", "25");
        h.set("courier.proxy.relay.retry-after.ms", "500");
        assertEquals(25, ProxyConfigs.fromHadoop(h).relayMaxConnections());
        assertEquals(500, ProxyConfigs.fromHadoop(h).relayRetryAfterMillis());

        Configuration bad = conf();
        bad.set("mapreduce.shuffle.max.connections", "lots");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.fromHadoop(bad));
        assertTrue(e.getMessage().contains("mapreduce.shuffle.max.connections"), e.getMessage());
        Configuration negative = conf();
        negative.set("courier.proxy.relay.max-connections", "-1");
        e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.fromHadoop(negative));
        assertTrue(e.getMessage().contains("courier.proxy.relay.max-connections"), e.getMessage());
    }

    @Test
    void theFetchingSocketsReceiveBufferIsTheKernelsUnlessSet() {
        assertEquals(0, ProxyConfigs.fromHadoop(conf()).receiveSocketBuffer());
        Configuration h = conf();
        h.set("courier.proxy.receive.socket-buffer.bytes", "32768");
        assertEquals(32768, ProxyConfigs.fromHadoop(h).receiveSocketBuffer());
        h.set("courier.proxy.receive.socket-buffer.bytes", "100");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.fromHadoop(h));
        assertTrue(e.getMessage().contains("courier.proxy.receive.socket-buffer.bytes"), e.getMessage());
    }

    @Test
    void smallBudgetsBelowTheDefaultWindowAreAcceptedInAnyOrder() {
        // A node budget below the default window is valid once the window is lowered too; whichever key
        // the configuration happens to list first must not matter.
        Configuration h = conf();
        h.set("courier.proxy.node.max-in-flight.bytes", "196608");
        h.set("courier.proxy.connection.max-in-flight.bytes", "196608");
        h.set("courier.proxy.stream.window.bytes", "32768");
        ProxyConfig c = ProxyConfigs.fromHadoop(h);
        assertEquals(196608, c.nodeMaxInFlight());
        assertEquals(196608, c.connectionMaxInFlight());
        assertEquals(32768, c.streamWindow());
        h.set("courier.proxy.stream.window.bytes", "262144");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.fromHadoop(h));
        assertTrue(e.getMessage().contains("courier.proxy.connection.max-in-flight.bytes"), e.getMessage());
    }

    @Test
    void unknownKeyIsRefusedByName() {
        Configuration h = conf();
        h.set("courier.proxy.stream.windw.bytes", "1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.fromHadoop(h));
        assertTrue(e.getMessage().contains("courier.proxy.stream.windw.bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("yarn-site.xml"), e.getMessage());
    }

    @Test
    void badValueIsRefusedByName() {
        Configuration h = conf();
        h.set("courier.proxy.io.threads", "many");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.fromHadoop(h));
        assertTrue(e.getMessage().contains("courier.proxy.io.threads"), e.getMessage());
    }

    @Test
    void portRuleDefaultsToTheFixedCourierPort() {
        ProxyPortRule r = ProxyConfigs.portRule(conf());
        assertFalse(r.isOffset());
        assertEquals(13563, r.proxyPortFor(13562));
        assertEquals(13563, r.proxyPortFor(40000));
    }

    @Test
    void minusOneSelectsShufflePortPlusOffset() {
        Configuration h = conf();
        h.set("courier.proxy.port", "-1");
        assertEquals(ProxyPortRule.offset(1), ProxyConfigs.portRule(h));
        h.set("courier.proxy.port-offset", "7");
        ProxyPortRule r = ProxyConfigs.portRule(h);
        assertTrue(r.isOffset());
        assertEquals(40007, r.proxyPortFor(40000));
    }

    @Test
    void badPortRuleIsRefused() {
        Configuration h = conf();
        h.set("courier.proxy.port", "0");
        assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.portRule(h));
        h.set("courier.proxy.port", "-1");
        h.set("courier.proxy.port-offset", "x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyConfigs.portRule(h));
        assertTrue(e.getMessage().contains("courier.proxy.port-offset"), e.getMessage());
    }
}
