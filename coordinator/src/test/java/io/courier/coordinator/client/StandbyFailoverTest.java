package io.courier.coordinator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.Coordinator;
import io.courier.coordinator.TestSupport;
import io.courier.coordinator.client.CoordinatorClientTest.Recorder;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.status.CoordinatorStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * High availability: a client configured with a primary and a standby coordinator follows the primary, fails
 * over to the standby when the primary dies (its coflow re-registered there, decisions resume), and goes back
 * to the primary once it is up again.
 */
@Timeout(120)
class StandbyFailoverTest {
    private Coordinator primary;
    private Coordinator standby;
    private CoordinatorClient client;
    private CoordinatorClient receiver;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        if (primary != null) {
            primary.close();
        }
        if (standby != null) {
            standby.close();
        }
    }

    /** A coordinator that drops nodes silent for 2 s, so that a standby forgets a node that left it quickly. */
    private static Coordinator coordinator(int port) {
        return Coordinator.start(TestSupport.settings(port, 20, "varys", 2_000), com.typesafe.config.ConfigFactory.load(),
                StandbyFailoverTest.class.getClassLoader());
    }

    private static CoordinatorStatus status(Coordinator c) throws Exception {
        return c.status(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Waits until {@code c} lists {@code nodes} registered nodes. */
    private static void awaitNodes(Coordinator c, int nodes) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (status(c).nodes().size() != nodes) {
            assertTrue(System.nanoTime() < end, "coordinator did not list " + nodes + " node(s) within 30 s");
            Thread.sleep(50);
        }
    }

    /** Waits until {@code c} lists one coflow (registrations follow the node's registration asynchronously). */
    private static void awaitOneCoflow(Coordinator c, String why) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (status(c).coflows().size() != 1) {
            assertTrue(System.nanoTime() < end, why + " within 30 s");
            Thread.sleep(50);
        }
    }

    @Test
    void failsOverToTheStandbyAndReturnsToThePrimary() throws Exception {
        int[] ports = TestSupport.freePorts(2);
        int primaryPort = ports[0];
        int standbyPort = ports[1];
        primary = coordinator(primaryPort);
        standby = coordinator(standbyPort);
        ClientSettings settings = ClientSettings.builder("127.0.0.1", primaryPort).standby("127.0.0.1", standbyPort)
                .reportIntervalMillis(20).ackTimeoutMillis(600).registerRetryMillis(100).primaryProbeMillis(300)
                .build();
        assertEquals(Arrays.asList("pekko://courier-coordinator@127.0.0.1:" + primaryPort + "/user",
                "pekko://courier-coordinator@127.0.0.1:" + standbyPort + "/user"), settings.coordinatorPaths());
        final List<FlowReport> rows = Arrays.asList(new FlowReport("job_1", "a", "b", 0, 50_000_000, -1, -1, false));
        Recorder r = new Recorder();
        client = CoordinatorClient.start(settings, new NodeInfo("a", "a:13562", "a:13563", 0, 0), () -> rows, r,
                StandbyFailoverTest.class.getClassLoader());
        // The flow's receiver, with the same two coordinators.
        Recorder rb = new Recorder();
        receiver = CoordinatorClient.start(settings, new NodeInfo("b", "b:13562", "b:13563", 0, 0),
                java.util.Collections::<FlowReport>emptyList, rb, StandbyFailoverTest.class.getClassLoader());
        assertEquals(Mode.COORDINATED, r.nextMode());
        assertEquals(Mode.COORDINATED, rb.nextMode());
        client.registerCoflow("job_1", Double.NaN, "NORMAL", System.currentTimeMillis());
        assertEquals("job_1", r.nextNonEmptyDecision().flows().get(0).jobId());
        awaitNodes(primary, 2);
        awaitNodes(standby, 0); // a node that tried the standby while connecting is expired there


        // The primary dies: fallback, then the standby takes over with the node and its coflow.
        primary.close();
        primary = null;
        assertEquals(Mode.FALLBACK, r.nextMode());
        assertEquals(Mode.COORDINATED, r.nextMode());
        awaitNodes(standby, 2);
        awaitOneCoflow(standby, "the coflow was re-registered with the standby");
        r.decisions.clear();
        DecisionUpdate fromStandby = r.nextNonEmptyDecision();
        assertEquals("job_1", fromStandby.flows().get(0).jobId());

        // The primary comes back on its address: the client returns to it within a probe interval.
        primary = coordinator(primaryPort);
        awaitNodes(primary, 2);
        awaitOneCoflow(primary, "the coflow followed the client back to the primary");
        r.decisions.clear();
        assertEquals("job_1", r.nextNonEmptyDecision().flows().get(0).jobId());
        assertEquals(Mode.COORDINATED, client.mode());
    }

    /**
     * Regression (found by the coordinator chaos run on the mini cluster): after a primary outage longer than
     * Artery keeps retrying (about 5 s), a client on the standby never heard the primary again, because its
     * probes went through an association that had given up. The client's watchdog now starts a fresh actor system
     * once it has followed the standby for {@code systemRestartMillis} while the primary accepts connections.
     */
    @Test
    void returnsToThePrimaryAfterALongOutage() throws Exception {
        int[] ports = TestSupport.freePorts(2);
        int primaryPort = ports[0];
        int standbyPort = ports[1];
        primary = coordinator(primaryPort);
        standby = coordinator(standbyPort);
        ClientSettings settings = ClientSettings.builder("127.0.0.1", primaryPort).standby("127.0.0.1", standbyPort)
                .reportIntervalMillis(20).ackTimeoutMillis(600).registerRetryMillis(100).primaryProbeMillis(300)
                .systemRestartMillis(2_000).build();
        Recorder r = new Recorder();
        client = CoordinatorClient.start(settings, new NodeInfo("a", "a:13562", "a:13563", 0, 0),
                java.util.Collections::<FlowReport>emptyList, r, StandbyFailoverTest.class.getClassLoader());
        assertEquals(Mode.COORDINATED, r.nextMode());
        client.registerCoflow("job_1", Double.NaN, "NORMAL", System.currentTimeMillis());
        awaitNodes(primary, 1);

        primary.close();
        primary = null;
        assertEquals(Mode.FALLBACK, r.nextMode());
        assertEquals(Mode.COORDINATED, r.nextMode());
        awaitNodes(standby, 1);
        Thread.sleep(8_000); // the long outage under test: longer than Artery's retries to the primary's address

        primary = coordinator(primaryPort);
        awaitNodes(primary, 1);
        awaitOneCoflow(primary, "the coflow followed the client back to the primary after a long outage");
        // The client got back by replacing its actor system: the proxy heard that it followed no coordinator for a
        // moment, then that it is coordinated again (not a stale COORDINATED from the system that was replaced).
        assertEquals(Mode.FALLBACK, r.nextMode());
        assertEquals(Mode.COORDINATED, r.nextMode());
        assertEquals(Mode.COORDINATED, client.mode());
    }
}
