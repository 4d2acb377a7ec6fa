package io.courier.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;

/** Shared test setup: coordinator settings on loopback, a remote-enabled config for probe systems, free ports. */
public final class TestSupport {
    private TestSupport() {
    }

    /** Coordinator settings on 127.0.0.1 with the given Artery port (0 = any), epoch and scheduler. */
    public static CoordinatorSettings settings(int port, long epochMillis, String scheduler) {
        return settings(port, epochMillis, scheduler, 10_000);
    }

    /** As {@link #settings(int, long, String)} with a node expiry. */
    public static CoordinatorSettings settings(int port, long epochMillis, String scheduler, long nodeExpiryMillis) {
        Map<String, Object> m = new HashMap<String, Object>();
        m.put("courier.coordinator.node-expiry", nodeExpiryMillis + "ms");
        m.put("courier.coordinator.port", port);
        m.put("courier.coordinator.http.port", 0);
        m.put("courier.coordinator.epoch", epochMillis + "ms");
        m.put("courier.coordinator.scheduler.name", scheduler);
        m.put("courier.coordinator.default-capacity.up", 1_000_000);
        m.put("courier.coordinator.default-capacity.down", 1_000_000);
        return CoordinatorSettings.from(ConfigFactory.parseMap(m).withFallback(ConfigFactory.load()));
    }

    public static Coordinator coordinator(int port, long epochMillis, String scheduler) {
        return Coordinator.start(settings(port, epochMillis, scheduler), ConfigFactory.load(),
                TestSupport.class.getClassLoader());
    }

    /** Configuration of a remote-enabled actor system on loopback (for test kits acting as proxies). */
    public static Config remoteConfig() {
        return PekkoSettings.remoting("127.0.0.1", 0, 256 * 1024, ConfigFactory.load());
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
