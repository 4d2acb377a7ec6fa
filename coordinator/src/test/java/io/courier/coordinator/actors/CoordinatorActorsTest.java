package io.courier.coordinator.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.coordinator.Coordinator;
import io.courier.coordinator.TestSupport;
import io.courier.coordinator.protocol.ClientCommand;
import io.courier.coordinator.protocol.CoflowCompleted;
import io.courier.coordinator.protocol.CoflowRegistered;
import io.courier.coordinator.protocol.CoordinatorCommand;
import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.EpochReport;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.coordinator.protocol.FlowReport;
import io.courier.coordinator.protocol.LookupProxy;
import io.courier.coordinator.protocol.NodeInfo;
import io.courier.coordinator.protocol.NodeRegistered;
import io.courier.coordinator.protocol.NotRegistered;
import io.courier.coordinator.protocol.ProxyLocation;
import io.courier.coordinator.protocol.RegisterNode;
import io.courier.coordinator.protocol.ReportAck;
import io.courier.coordinator.status.CoordinatorStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator's actors driven over real Artery TCP with Kryo: a remote-enabled test kit plays the proxies
 * (one probe per node), so every message here crossed the wire format.
 */
@Timeout(60)
class CoordinatorActorsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private Coordinator coordinator;
    private ActorTestKit proxies;
    private ActorRef<CoordinatorCommand> entry;

    void start(String scheduler, long epochMillis) {
        start(TestSupport.settings(0, epochMillis, scheduler));
    }

    void start(io.courier.coordinator.CoordinatorSettings settings) {
        coordinator = Coordinator.start(settings, com.typesafe.config.ConfigFactory.load(), getClass().getClassLoader());
        proxies = ActorTestKit.create("proxies", TestSupport.remoteConfig());
        entry = ActorRefResolver.get(proxies.system()).resolveActorRef(coordinator.entryPath());
    }

    @AfterEach
    void stop() {
        if (proxies != null) {
            proxies.shutdownTestKit();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    private TestProbe<ClientCommand> register(String node) {
        TestProbe<ClientCommand> p = proxies.createTestProbe(node);
        entry.tell(new RegisterNode(new NodeInfo(node, node + ":13562", node + ":13563", 0, 0), p.getRef()));
        NodeRegistered r = p.expectMessageClass(NodeRegistered.class, WAIT);
        assertEquals(node, r.nodeId());
        assertEquals(coordinator.id(), r.coordinatorId());
        return p;
    }

    /** Receives messages until a DecisionUpdate arrives, skipping acks. */
    private static DecisionUpdate nextDecision(TestProbe<ClientCommand> p) {
        while (true) {
            ClientCommand m = p.receiveMessage(WAIT);
            if (m instanceof DecisionUpdate) {
                return (DecisionUpdate) m;
            }
        }
    }

    /** The first non-empty decision update. */
    private static DecisionUpdate nextNonEmptyDecision(TestProbe<ClientCommand> p) {
        while (true) {
            DecisionUpdate d = nextDecision(p);
            if (!d.flows().isEmpty()) {
                return d;
            }
        }
    }

    private static FlowDecision find(DecisionUpdate d, String job, String src, String dst) {
        for (FlowDecision f : d.flows()) {
            if (f.jobId().equals(job) && f.srcNode().equals(src) && f.dstNode().equals(dst)) {
                return f;
            }
        }
        throw new AssertionError("no decision for " + job + " " + src + "->" + dst + " in " + d);
    }

    @Test
    void registrationReRegistrationAndDiscovery() {
        start("fair", 20);
        TestProbe<ClientCommand> a = register("a");
        register("b");
        // Re-registration (a restarted proxy) is accepted with a new reply address.
        TestProbe<ClientCommand> a2 = register("a");
        entry.tell(new LookupProxy("b:13562", a2.getRef()));
        assertEquals(new ProxyLocation("b:13562", "b:13563"), a2.expectMessageClass(ProxyLocation.class, WAIT));
        entry.tell(new LookupProxy("nowhere:1", a2.getRef()));
        assertFalse(a2.expectMessageClass(ProxyLocation.class, WAIT).found());
        CoordinatorStatus s = status();
        assertEquals(2, s.nodes().size());
        a.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void eachNodeReceivesOnlyItsFlowsAndVarysFavoursTheSmallerCoflow() {
        start("varys", 20);
        TestProbe<ClientCommand> a = register("a");
        TestProbe<ClientCommand> b = register("b");
        TestProbe<ClientCommand> c = register("c");
        TestProbe<ClientCommand> d = register("d");
        entry.tell(new CoflowRegistered("job-big", Double.NaN, "", 1000));
        entry.tell(new CoflowRegistered("job-small", Double.NaN, "", 2000));
        // a sends both jobs to b; a also sends job-big to c; d takes part in nothing.
        List<FlowReport> rows = Arrays.asList(
                new FlowReport("job-big", "a", "b", 0, 100_000_000, -1, -1, false),
                new FlowReport("job-small", "a", "b", 0, 1_000_000, -1, -1, false),
                new FlowReport("job-big", "a", "c", 0, 100_000_000, -1, -1, false));
        awaitCoflows(2);
        entry.tell(new EpochReport("a", 1, rows, a.getRef()));
        assertEquals(new ReportAck(1, Collections.<String>emptyList()), a.expectMessageClass(ReportAck.class, WAIT));

        DecisionUpdate da = nextNonEmptyDecision(a);
        assertEquals("varys", da.scheduler());
        assertEquals(3, da.flows().size(), "the sender sees all its flows: " + da);
        DecisionUpdate db = nextNonEmptyDecision(b);
        assertEquals(flowSet(db), new HashSet<String>(Arrays.asList("job-big a->b", "job-small a->b")));
        DecisionUpdate dc = nextNonEmptyDecision(c);
        assertEquals(flowSet(dc), Collections.singleton("job-big a->c"));
        // Varys (SEBF): the smaller coflow goes first on the shared port up(a).
        double small = find(da, "job-small", "a", "b").rate();
        double bigToB = find(da, "job-big", "a", "b").rate();
        assertTrue(small > bigToB, "small " + small + " should beat big " + bigToB);
        assertEquals(1_000_000.0, small, 1e-3, "the small coflow takes all of up(a) (capacity 1 MB/s)");
        // d has no flows: it hears nothing but its registration.
        d.expectNoMessage(Duration.ofMillis(200));
    }

    @Test
    void theEpochTicksOnAndANodeIsToldWhenItsDecisionsChangeAndAtLeastEveryHeartbeat() {
        start("fair", 20);
        TestProbe<ClientCommand> a = register("a");
        register("b");
        entry.tell(new CoflowRegistered("job-1", Double.NaN, "", 0));
        awaitCoflows(1);
        FlowReport one = new FlowReport("job-1", "a", "b", 0, 1 << 30, -1, -1, false);
        entry.tell(new EpochReport("a", 1, Arrays.asList(one), a.getRef()));
        assertEquals(1_000_000.0, find(nextNonEmptyDecision(a), "job-1", "a", "b").rate(), 1e-6,
                "alone on up(a), 1 MB/s");
        // Unchanged decisions are not re-sent every epoch, only as a heartbeat (every 100 ms) while the epoch
        // ticks on. Bounds, not performance assertions: 50 ticks are due in 1 s at 20 ms (accept 25..75; a loaded
        // 2-core machine stretches some), and about 10 heartbeats (accept 1..20, not one per epoch).
        long epochs0 = status().epochs().epochs;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        int count = 0;
        long lastEpoch = -1;
        while (System.nanoTime() < end) {
            ClientCommand m = a.receiveMessage(WAIT);
            if (m instanceof DecisionUpdate) {
                DecisionUpdate d = (DecisionUpdate) m;
                assertTrue(d.epoch() > lastEpoch, "epochs increase");
                assertEquals(1_000_000.0, find(d, "job-1", "a", "b").rate(), 1e-6, "a heartbeat repeats the decision");
                lastEpoch = d.epoch();
                count++;
            }
        }
        long ticks = status().epochs().epochs - epochs0;
        assertTrue(ticks >= 25 && ticks <= 75, "epoch ticks in 1 s at a 20 ms epoch: " + ticks);
        assertTrue(count >= 1 && count <= 20, "unchanged decisions re-sent in 1 s: " + count);
        // A change reaches the node at the next decision: a second coflow on up(a) halves job-1's fair share.
        entry.tell(new CoflowRegistered("job-2", Double.NaN, "", 0));
        awaitCoflows(2);
        entry.tell(new EpochReport("a", 2, Arrays.asList(one,
                new FlowReport("job-2", "a", "b", 0, 1 << 30, -1, -1, false)), a.getRef()));
        DecisionUpdate d = nextDecision(a);
        while (d.flows().size() != 2) {
            d = nextDecision(a);
        }
        assertEquals(500_000.0, find(d, "job-1", "a", "b").rate(), 1e-6, "fair share of up(a)");
    }

    @Test
    void aReportingNodeWithoutDecisionsIsAcknowledgedAtHeartbeatsNotEveryReport() {
        start("fair", 20);
        TestProbe<ClientCommand> a = register("a");
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(1000);
        int reports = 0;
        while (System.nanoTime() < end) {
            entry.tell(new EpochReport("a", ++reports, Collections.<FlowReport>emptyList(), a.getRef()));
            sleepBriefly();
        }
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000L;
        int acks = 0;
        while (true) {
            ClientCommand m;
            try {
                m = a.receiveMessage(Duration.ofMillis(500));
            } catch (AssertionError nothingMore) {
                break;
            }
            assertTrue(m instanceof ReportAck, "a node without flows hears only acknowledgements: " + m);
            acks++;
        }
        // The first report is answered at once, then at most one per 100 ms heartbeat, however many reports come
        // (about 100 here, one per ~10 ms; bounds, not a performance assertion).
        assertTrue(acks >= 1 && acks <= elapsedMillis / 100 + 3, acks + " acknowledgements for " + reports
                + " reports in " + elapsedMillis + " ms");
        assertTrue(acks < reports, acks + " acknowledgements for " + reports + " reports");
    }

    @Test
    void aReceiversRowMakesTheFlowKnownUntilItsSenderReports() {
        start("varys", 20);
        TestProbe<ClientCommand> a = register("a");
        TestProbe<ClientCommand> b = register("b");
        entry.tell(new CoflowRegistered("job-1", Double.NaN, "", 0));
        awaitCoflows(1);
        // Only the receiver b reports the flow a -> b: the coordinator schedules it and tells the sender a.
        entry.tell(new EpochReport("b", 1, Arrays.asList(new FlowReport("job-1", "a", "b", 100, 900, 1000, -1, false)),
                b.getRef()));
        assertEquals(Collections.singleton("job-1 a->b"), flowSet(nextNonEmptyDecision(a)));
        assertEquals(100, status().flows().get(0).bytesSent, "the receiver's row stands in for the sender's");
        // Once the sender reports, its row is the one used, whatever the receiver says afterwards.
        entry.tell(new EpochReport("a", 1, Arrays.asList(new FlowReport("job-1", "a", "b", 400, 600, 1000, -1, false)),
                a.getRef()));
        entry.tell(new EpochReport("b", 2, Arrays.asList(new FlowReport("job-1", "a", "b", 150, 850, 1000, -1, false)),
                b.getRef()));
        long end = System.nanoTime() + WAIT.toNanos();
        while (status().flows().get(0).bytesSent != 400) {
            assertTrue(System.nanoTime() < end, "the sender's row never took over: " + status().flows().get(0).bytesSent);
            sleepBriefly();
        }
        sleepBriefly();
        assertEquals(400, status().flows().get(0).bytesSent, "a later receiver row does not override the sender's");
    }

    @Test
    void badReportsAreRejectedAndTheCoordinatorCarriesOn() {
        start("varys", 20);
        TestProbe<ClientCommand> a = register("a");
        register("b");
        TestProbe<ClientCommand> stranger = proxies.createTestProbe("stranger");
        // A report from an unknown node: told to register, nothing else.
        entry.tell(new EpochReport("ghost", 1, Collections.<FlowReport>emptyList(), stranger.getRef()));
        assertEquals(new NotRegistered("ghost"), stranger.expectMessageClass(NotRegistered.class, WAIT));
        // Rows for an unknown job, for a flow a neither sends nor receives, and naming an unknown node.
        entry.tell(new CoflowRegistered("job-1", Double.NaN, "", 0));
        awaitCoflows(1);
        entry.tell(new EpochReport("a", 1, Arrays.asList(
                new FlowReport("job-unknown", "a", "b", 0, 10, -1, -1, false),
                new FlowReport("job-1", "b", "ghost", 0, 10, -1, -1, false),
                new FlowReport("job-1", "a", "ghost", 0, 10, -1, -1, false),
                new FlowReport("job-1", "a", "a", 0, 10, -1, -1, false), // node-local: not a network flow, ignored
                new FlowReport("job-1", "a", "b", 0, 10_000, -1, -1, false)), a.getRef()));
        ReportAck ack = a.expectMessageClass(ReportAck.class, WAIT);
        assertEquals(Collections.singletonList("job-unknown"), ack.unknownJobs());
        DecisionUpdate d = nextNonEmptyDecision(a);
        assertEquals(Collections.singleton("job-1 a->b"), flowSet(d), "only the valid row is scheduled");
        CoordinatorStatus s = status();
        assertEquals(1, s.epochs().reportsRejected);
        assertEquals(3, s.epochs().rowsRejected);
        assertEquals(0, s.epochs().schedulerFailures);
    }

    @Test
    void completionRemovesTheCoflowAndTheNodeGetsAnEmptyUpdate() {
        start("sincronia", 20);
        TestProbe<ClientCommand> a = register("a");
        register("b");
        entry.tell(new CoflowRegistered("job-1", Double.NaN, "VERY_HIGH", 0));
        awaitCoflows(1);
        assertEquals(8.0, status().coflows().get(0).weight, 1e-12, "VERY_HIGH maps to weight 8");
        entry.tell(new EpochReport("a", 1, Arrays.asList(new FlowReport("job-1", "a", "b", 0, 100, -1, -1, false)),
                a.getRef()));
        DecisionUpdate d = nextNonEmptyDecision(a);
        assertTrue(d.orderBased(), "sincronia is order-based");
        assertEquals(0, find(d, "job-1", "a", "b").priority(), "the only coflow has priority 0");
        assertEquals(0, find(d, "job-1", "a", "b").coflowRank(), "and rank 0");
        entry.tell(new CoflowCompleted("job-1"));
        while (!nextDecision(a).flows().isEmpty()) {
            // decisions already in flight
        }
        awaitCoflows(0);
        // A late registration of a completed job does not bring it back.
        entry.tell(new CoflowRegistered("job-1", Double.NaN, "", 0));
        assertEquals(0, status().coflows().size());
        // Another node's last rows of the job (its NodeManager has not ended the job yet): dropped quietly, not
        // rejected as an unknown job's (no warning, no re-registration asked for).
        TestProbe<ClientCommand> late = proxies.createTestProbe("late");
        long received = status().epochs().reportsReceived;
        entry.tell(new EpochReport("b", 1, Arrays.asList(new FlowReport("job-1", "a", "b", 100, 0, 100, -1, true)),
                late.getRef()));
        long end = System.nanoTime() + WAIT.toNanos();
        while (status().epochs().reportsReceived == received) {
            assertTrue(System.nanoTime() < end, "the late report was never received");
            sleepBriefly();
        }
        // (An unknown job's row is counted here and named in the ack in the same step.)
        assertEquals(0, status().epochs().rowsRejected, "a completed job's late row was treated as an unknown job's");
    }

    @Test
    void aSilentNodeExpiresAndIsToldToRegisterWhenItReportsAgain() {
        start(TestSupport.settings(0, 20, "fair", 400));
        TestProbe<ClientCommand> a = register("a");
        TestProbe<ClientCommand> b = register("b");
        long end = System.nanoTime() + WAIT.toNanos();
        // a keeps reporting (heartbeats); b stays silent and must expire.
        while (status().nodes().size() != 1) {
            assertTrue(System.nanoTime() < end, "b never expired");
            entry.tell(new EpochReport("a", 1, Collections.<FlowReport>emptyList(), a.getRef()));
            sleepBriefly();
        }
        assertEquals("a", status().nodes().get(0).nodeId);
        entry.tell(new EpochReport("b", 2, Collections.<FlowReport>emptyList(), b.getRef()));
        assertEquals(new NotRegistered("b"), b.expectMessageClass(NotRegistered.class, WAIT));
    }

    private void awaitCoflows(int n) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (status().coflows().size() != n) {
            assertTrue(System.nanoTime() < end, "coflow count never reached " + n);
            sleepBriefly();
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private CoordinatorStatus status() {
        try {
            return coordinator.status(WAIT).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Set<String> flowSet(DecisionUpdate d) {
        Set<String> s = new HashSet<String>();
        for (FlowDecision f : d.flows()) {
            s.add(f.jobId() + " " + f.srcNode() + "->" + f.dstNode());
        }
        assertNotEquals(0, s.size());
        return s;
    }
}
