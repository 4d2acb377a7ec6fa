package io.courier.bench.netemu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class CourierOverridesTest {
    @Test
    void onlyCourierKeysReachTheConfiguration() {
        Properties p = new Properties();
        p.setProperty("courier.proxy.node.max-in-flight.bytes", "196608");
        p.setProperty("courier.reduce.stream.window.bytes", "32768");
        p.setProperty("java.io.tmpdir", "/tmp");
        Configuration c = CourierOverrides.from(p).applyTo(new Configuration(false));
        assertEquals("196608", c.get("courier.proxy.node.max-in-flight.bytes"));
        assertEquals("32768", c.get("courier.reduce.stream.window.bytes"));
        assertNull(c.get("java.io.tmpdir"));
        assertEquals(2, CourierOverrides.from(p).settings().size());
    }
}
