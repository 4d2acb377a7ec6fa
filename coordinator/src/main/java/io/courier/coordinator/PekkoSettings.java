package io.courier.coordinator;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.wire.KryoWireSerializer;

/**
 * The Pekko configuration every Courier actor system runs with (coordinator and embedded clients): Artery
 * TCP on the given address, SLF4J logging, our Kryo serializer bound to every wire message, Java
 * serialization off, a 1 ms scheduler tick (the default 10 ms tick would blur a 10 ms epoch), and no
 * Pekko JVM shutdown hook (the owner of the system terminates it).
 */
public final class PekkoSettings {
    private PekkoSettings() {
    }

    /**
     * @param hostname the address peers use to reach this system (Artery canonical hostname)
     * @param port 0 for any free port
     * @param maxFrameBytes the wire frame limit (our serializer's cap; Artery's frame gets headroom on top)
     * @param fallback the rest of the configuration (usually {@code ConfigFactory.load(classLoader)})
     */
    public static Config remoting(String hostname, int port, int maxFrameBytes, Config fallback) {
        String s = "pekko {\n"
                + "  loggers = [\"org.apache.pekko.event.slf4j.Slf4jLogger\"]\n"
                + "  logging-filter = \"org.apache.pekko.event.slf4j.Slf4jLoggingFilter\"\n"
                + "  loglevel = INFO\n"
                + "  stdout-loglevel = OFF\n"
                + "  log-dead-letters = 10\n"
                + "  log-dead-letters-during-shutdown = off\n"
                + "  scheduler.tick-duration = 1ms\n"
                + "  coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
                + "  coordinated-shutdown.exit-jvm = off\n"
                + "  actor {\n"
                + "    provider = remote\n"
                + "    allow-java-serialization = off\n"
                + "    warn-about-java-serializer-usage = on\n"
                + "    serializers { courier-kryo = \"" + KryoWireSerializer.class.getName() + "\" }\n"
                + "    serialization-bindings { \"io.courier.coordinator.protocol.CoordinatorMessage\" = courier-kryo }\n"
                + "    serialization-identifiers { \"" + KryoWireSerializer.class.getName() + "\" = "
                + KryoWireSerializer.IDENTIFIER + " }\n"
                + "  }\n"
                + "  # Plain remoting is the design (no cluster membership): silence the advice to use Pekko Cluster.\n"
                + "  remote.warn-about-direct-use = off\n"
                + "  remote.warn-unsafe-watch-outside-cluster = off\n"
                + "  remote.artery {\n"
                + "    transport = tcp\n"
                + "    canonical.hostname = \"" + hostname + "\"\n"
                + "    canonical.port = " + port + "\n"
                + "    advanced.maximum-frame-size = " + (maxFrameBytes + 32 * 1024) + "b\n"
                + "  }\n"
                + "}\n"
                + "courier.wire.max-frame-bytes = " + maxFrameBytes + "b\n";
        return ConfigFactory.parseString(s).withFallback(fallback);
    }
}
