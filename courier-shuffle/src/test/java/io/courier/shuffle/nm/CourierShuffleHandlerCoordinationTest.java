package io.courier.shuffle.nm;

import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
import io.courier.coordinator.client.Mode;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.shuffle.TestPorts;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import io.courier.shuffle.service.ServiceMetadata;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handler with {@code courier.coordinator.*}: registration, coflow life cycle, fallback, bad settings. */
@Timeout(60)
class CourierShuffleHandlerCoordinationTest {
    @TempDir
    File tmp;

    private CourierShuffleHandler handler;
    private CourierProxy client;
    private Coordinator coordinator;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (handler != null) {
            handler.stop();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    private Configuration nmConf(File localDir, int coordinatorPort) {
        Configuration c = new Configuration(false);
        c.set("yarn.nodemanager.address", "localhost:0");
        c.set("yarn.nodemanager.local-dirs", localDir.getAbsolutePath());
        c.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
        c.set("courier.proxy.port", "-1");
        c.set("courier.coordinator.address", "127.0.0.1:" + coordinatorPort);
        c.set("courier.coordinator.client.host", "localhost");
        c.set("courier.coordinator.report-interval-ms", "20");
        c.set("courier.coordinator.ack-timeout-ms", "600");
        c.set("courier.coordinator.register-retry-ms", "100");
        c.set("courier.proxy.capacity.bytes-per-second", "250000000");
        return c;
    }

    private static Coordinator coordinator(int port) {
        Map<String, Object> m = new HashMap<>();
        m.put("courier.coordinator.hostname", "127.0.0.1");
        m.put("courier.coordinator.port", port);
        m.put("courier.coordinator.http.port", 0);
        m.put("courier.coordinator.epoch", "20ms");
        m.put("courier.coordinator.scheduler.name", "fair");
        return Coordinator.start(CoordinatorSettings.from(ConfigFactory.parseMap(m).withFallback(ConfigFactory.load())),
                ConfigFactory.load(), CourierShuffleHandlerCoordinationTest.class.getClassLoader());
    }

    private CourierShuffleHandler start(Configuration conf) {
        CourierShuffleHandler h = new CourierShuffleHandler();
        h.init(conf);
        h.start();
        return h;
    }

    private CoordinatorStatus status() throws Exception {
        return coordinator.status(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(String what, Condition c) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!c.holds()) {
            assertTrue(System.nanoTime() < end, "not within 20 s: " + what);
            Thread.sleep(10);
        }
    }

    private boolean knowsCoflow(String job) throws Exception {
        for (CoordinatorStatus.CoflowStatus c : status().coflows()) {
            if (c.jobId.equals(job)) {
                return true;
            }
        }
        return false;
    }

    /** Serves one segment of the test job through the handler's proxy to a stand-alone proxy. */
    private void serveOne(File local, MapOutputFiles files) throws Exception {
        ServiceMetadata meta = handler.serviceMetadata();
        handler.initializeApplication(new ApplicationInitializationContext("alice", CourierShuffleHandlerTest.APP,
                CourierShuffleHandlerTest.jobTokenData(CourierShuffleHandlerTest.JOB, CourierShuffleHandlerTest.SECRET)));
        client = new CourierProxy(ProxyConfig.defaults(), new InMemorySecrets(),
                new DirectoryMapOutputLocator(new File(tmp, "client-outputs")));
        client.start();
        try (SegmentStream s = client.fetch("localhost:" + meta.proxyPort(), CourierShuffleHandlerTest.JOB,
                CourierShuffleHandlerTest.MAP, 1, CourierShuffleHandlerTest.SECRET)) {
            assertArrayEquals(new HadoopMapOutputs(new File(tmp, "unused")).expectedSegment(files, 1),
                    ProxyCluster.readAll(s));
        }
    }

    @Test
    void registersTheNodeAndTheJobsCoflowAndCompletesItAtStopApplication() throws Exception {
        int port = PortPairPicker.pick(0);
        coordinator = coordinator(port);
        File local = new File(tmp, "nm-local");
        MapOutputFiles files = NodeManagerMapOutputLocatorTest.writeNmOutput(local, "alice",
                CourierShuffleHandlerTest.APP.toString(), CourierShuffleHandlerTest.MAP, 2);
        handler = start(nmConf(local, port));
        await("coordinated", () -> handler.coordination().mode() == Mode.COORDINATED);
        CoordinatorStatus s = status();
        assertEquals(1, s.nodes().size());
        CoordinatorStatus.NodeStatus n = s.nodes().get(0);
        ServiceMetadata meta = handler.serviceMetadata();
        assertEquals(handler.proxy().nodeId(), n.nodeId);
        assertEquals(handler.proxy().nodeId(), n.proxyEndpoint);
        assertEquals("localhost:" + meta.shufflePort(), n.shuffleEndpoint);
        assertEquals(250_000_000L, n.upBytesPerSecond);

        serveOne(local, files);
        await("the job's coflow registered at its first served segment",
                () -> knowsCoflow(CourierShuffleHandlerTest.JOB));
        handler.stopApplication(new ApplicationTerminationContext(CourierShuffleHandlerTest.APP));
        await("the coflow completed", () -> !knowsCoflow(CourierShuffleHandlerTest.JOB));
    }

    @Test
    void anUnreachableCoordinatorLeavesTheProxyServingInFallback() throws Exception {
        File local = new File(tmp, "nm-local");
        MapOutputFiles files = NodeManagerMapOutputLocatorTest.writeNmOutput(local, "alice",
                CourierShuffleHandlerTest.APP.toString(), CourierShuffleHandlerTest.MAP, 2);
        try (Socket nobody = TestPorts.refusing()) {
            handler = start(nmConf(local, nobody.getLocalPort()));
            assertTrue(handler.coordination().clientRunning());
            serveOne(local, files);
            assertEquals(Mode.FALLBACK, handler.coordination().mode());
        }
    }

    @Test
    void aBadCoordinatorAddressFailsInitNamingTheKey() {
        Configuration c = nmConf(new File(tmp, "nm-local"), 1);
        c.set("courier.coordinator.address", "no-port-here");
        CourierShuffleHandler h = new CourierShuffleHandler();
        Exception e = assertThrows(Exception.class, () -> h.init(c));
        assertTrue(String.valueOf(e.getMessage()).contains("courier.coordinator.address")
                || String.valueOf(e.getCause()).contains("courier.coordinator.address"), e.toString());
    }
}
