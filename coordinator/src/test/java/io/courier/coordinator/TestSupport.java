package io.courier.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** Shared test setup: coordinator settings on loopback, a remote-enabled config for probe systems, free ports. */
public final class TestSupport {
    /**
     * Where {@link #freePort()} draws: below Linux's default ephemeral range (32768–60999). Tests stop a coordinator
     * and start it again on the same port seconds later while clients keep reconnecting; a port inside the range
     * could meanwhile become an outgoing connection's local port (a client's reconnect included) and the restart
     * would fail to bind.
     */
    private static final int FREE_PORTS_FROM = 20_000;
    private static final int FREE_PORTS_TO = 32_000;
    private static final int FREE_PORT_DRAWS = 50;

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

    /** A port free just now (probed, not held), drawn outside the ephemeral range (see {@link #FREE_PORTS_FROM}). */
    public static int freePort() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < FREE_PORT_DRAWS; i++) {
            int p = FREE_PORTS_FROM + random.nextInt(FREE_PORTS_TO - FREE_PORTS_FROM + 1);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(p));
                return p;
            } catch (IOException e) {
                // taken: draw another
            }
        }
        throw new IllegalStateException("no free port among " + FREE_PORT_DRAWS + " draws from " + FREE_PORTS_FROM
                + "-" + FREE_PORTS_TO);
    }

    /** {@code n} distinct ports as {@link #freePort()} draws them (two draws alone could repeat a port). */
    public static int[] freePorts(int n) {
        Set<Integer> ports = new LinkedHashSet<>();
        while (ports.size() < n) {
            ports.add(freePort());
        }
        return ports.stream().mapToInt(Integer::intValue).toArray();
    }
}
