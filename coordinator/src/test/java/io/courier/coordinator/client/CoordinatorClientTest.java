package io.courier.coordinator.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.Coordinator;
import io.courier.coordinator.TestSupport;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.status.CoordinatorStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The embedded client against a real coordinator: registration, decisions, fallback on loss, return on restart. */
@Timeout(90)
class CoordinatorClientTest {
    private Coordinator coordinator;
    private CoordinatorClient a;
    private CoordinatorClient b;

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    /** Records what the client tells the proxy. */
    static final class Recorder implements CoordinatorListener {
        final BlockingQueue<Mode> modes = new LinkedBlockingQueue<Mode>();
        final BlockingQueue<DecisionUpdate> decisions = new LinkedBlockingQueue<DecisionUpdate>();

        @Override
        public void onDecisions(DecisionUpdate update) {
            decisions.add(update);
        }

        @Override
        public void onModeChanged(Mode mode, String reason) {
            modes.add(mode);
        }

        Mode nextMode() throws InterruptedException {
            Mode m = modes.poll(20, TimeUnit.SECONDS);
            assertNotNull(m, "no mode change within 20 s");
            return m;
        }

        DecisionUpdate nextNonEmptyDecision() throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < end) {
                DecisionUpdate d = decisions.poll(1, TimeUnit.SECONDS);
                if (d != null && !d.flows().isEmpty()) {
                    return d;
                }
            }
            throw new AssertionError("no decision within 20 s");
        }
    }

    private static ClientSettings settings(int port) {
        return ClientSettings.builder("127.0.0.1", port).reportIntervalMillis(20).ackTimeoutMillis(600)
                .registerRetryMillis(100).lookupTimeoutMillis(1000).systemRestartMillis(2_000).build();
    }

    private static CoordinatorClient client(int port, String node, ReportSource source, Recorder r) {
        return CoordinatorClient.start(settings(port), new NodeInfo(node, node + ":13562", node + ":13563", 0, 0),
                source, r, CoordinatorClientTest.class.getClassLoader());
    }

    @Test
    void fallsBackWhenTheCoordinatorIsLostAndReturnsWhenItRestarts() throws Exception {
        loseAndRestartTheCoordinator(0);
    }

    @Test
    void returnsWhenTheCoordinatorRestartsAfterALongOutage() throws Exception {
        // Longer than Artery keeps retrying a refused address: only a fresh client actor system (after
        // systemRestartMillis in FALLBACK) reaches the restarted coordinator.
        loseAndRestartTheCoordinator(6_000);
    }

    /** Two clients, a coflow and its decisions; the coordinator stops, stays away {@code outageMillis}, returns. */
    private void loseAndRestartTheCoordinator(long outageMillis) throws Exception {
        int port = TestSupport.freePort();
        coordinator = TestSupport.coordinator(port, 20, "varys");
        final List<FlowReport> rows = Arrays.asList(new FlowReport("job_1", "a", "b", 0, 50_000_000, -1, -1, false));
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        a = client(port, "a", () -> rows, ra);
        b = client(port, "b", () -> Collections.<FlowReport>emptyList(), rb);
        assertEquals(Mode.COORDINATED, ra.nextMode());
        assertEquals(Mode.COORDINATED, rb.nextMode());
        assertEquals(Mode.COORDINATED, a.mode());
        a.registerCoflow("job_1", Double.NaN, "NORMAL", System.currentTimeMillis());
        DecisionUpdate first = ra.nextNonEmptyDecision();
        assertEquals("job_1", first.flows().get(0).jobId());
        assertEquals(Optional.of("b:13563"), a.lookupProxy("b:13562").toCompletableFuture().get(10, TimeUnit.SECONDS));
        String firstId = coordinator.id();

        // The coordinator goes away: both proxies fall back after the ack timeout.
        coordinator.close();
        coordinator = null;
        assertEquals(Mode.FALLBACK, ra.nextMode());
        assertEquals(Mode.FALLBACK, rb.nextMode());
        assertEquals(Mode.FALLBACK, a.mode());
        ra.decisions.clear();

        // A new coordinator on the same address: the proxies re-register by themselves, re-send the coflow,
        // and decisions resume.
        Thread.sleep(outageMillis);
        coordinator = TestSupport.coordinator(port, 20, "varys");
        assertNotEquals(firstId, coordinator.id());
        assertEquals(Mode.COORDINATED, ra.nextMode());
        assertEquals(Mode.COORDINATED, rb.nextMode());
        DecisionUpdate resumed = ra.nextNonEmptyDecision();
        assertEquals("job_1", resumed.flows().get(0).jobId());
        assertEquals(1, coordinator.status(java.time.Duration.ofSeconds(5)).toCompletableFuture()
                .get(10, TimeUnit.SECONDS).coflows().size(), "the coflow was re-registered");
    }

    /**
     * A proxy's connections serve a job before its planning thread registers the job's coflow: the client must
     * hold the job's rows back until the registration went out (else the coordinator drops them with a warning),
     * and must not send them after the coflow completed.
     */
    @Test
    void reportsOnlyTheRowsOfCoflowsItRegisteredAndHasNotCompleted() throws Exception {
        int port = TestSupport.freePort();
        coordinator = TestSupport.coordinator(port, 20, "varys");
        final AtomicInteger evaluations = new AtomicInteger();
        final List<FlowReport> rows = Arrays.asList(new FlowReport("job_1", "a", "b", 0, 50_000_000, -1, -1, false));
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        a = client(port, "a", () -> {
            evaluations.incrementAndGet();
            return rows;
        }, ra);
        b = client(port, "b", () -> Collections.<FlowReport>emptyList(), rb);
        assertEquals(Mode.COORDINATED, ra.nextMode());
        assertEquals(Mode.COORDINATED, rb.nextMode());
        awaitEvaluations(evaluations, 10);
        CoordinatorStatus before = status();
        assertEquals(0, before.epochs().rowsRejected, "rows of an unregistered job were sent");
        assertTrue(before.flows().isEmpty(), () -> "flows known before the registration: " + before.flows().size());

        a.registerCoflow("job_1", Double.NaN, "NORMAL", System.currentTimeMillis());
        assertEquals("job_1", ra.nextNonEmptyDecision().flows().get(0).jobId());
        a.completeCoflow("job_1");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!status().coflows().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        assertTrue(status().coflows().isEmpty(), "the coflow did not complete");
        awaitEvaluations(evaluations, 10);
        assertEquals(0, status().epochs().rowsRejected, "rows of a completed job were sent");
    }

    private CoordinatorStatus status() throws Exception {
        return coordinator.status(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Waits until the report source was asked {@code more} times more (the client's report ticks). */
    private static void awaitEvaluations(AtomicInteger evaluations, int more) throws InterruptedException {
        int target = evaluations.get() + more;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (evaluations.get() < target && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertTrue(evaluations.get() >= target, "the client stopped evaluating its reports");
    }

    @Test
    void startsInFallbackWithoutACoordinatorAndLookupsTimeOut() throws Exception {
        int port = TestSupport.freePort();
        Recorder ra = new Recorder();
        a = client(port, "a", () -> Collections.<FlowReport>emptyList(), ra);
        assertEquals(Mode.FALLBACK, a.mode());
        try {
            a.lookupProxy("b:13562").toCompletableFuture().get(10, TimeUnit.SECONDS);
            throw new AssertionError("lookup without a coordinator must fail");
        } catch (java.util.concurrent.ExecutionException e) {
            assertTrue(e.getCause() instanceof java.util.concurrent.TimeoutException, e.toString());
        }
        assertTrue(ra.modes.isEmpty(), "no mode change without a coordinator");
        // A coordinator appears later: the client finds it.
        coordinator = TestSupport.coordinator(port, 20, "fair");
        assertEquals(Mode.COORDINATED, ra.nextMode());
        assertFalse(ra.modes.contains(Mode.FALLBACK));
    }
}
