package io.courier.shuffle.coordination;

import com.typesafe.config.ConfigFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
import io.courier.coordinator.client.Mode;
import io.courier.coordinator.status.CoordinatorStatus;
import io.courier.scheduler.planning.PlanningMode;
import io.courier.shuffle.nm.PortPairPicker;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.courier.shuffle.proxy.schedule.SendPlan;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two proxies with their coordination against an in-process coordinator (FIFO, order-based): registration,
 * reports of served bytes, an order decision that changes the sender's plan and the order blocks leave in, the
 * fallback when the coordinator stops (fetches keep completing under Stream's priorities) and the return to
 * coordinated mode when it starts again on the same address.
 */
@Timeout(60)
class ProxyCoordinationTest {
    private static final String HIGH = "job_1700000000000_0001";
    private static final String LOW = "job_1700000000000_0002";
    private static final String LATER = "job_1700000000000_0003";
    private static final byte[] SECRET = "s".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;

    private Coordinator coordinator;
    private final List<ProxyCoordination> coordinations = new ArrayList<>();

    @AfterEach
    void stop() {
        for (ProxyCoordination c : coordinations) {
            c.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    private static Coordinator coordinator(int port) {
        Map<String, Object> m = new HashMap<>();
        m.put("courier.coordinator.hostname", "127.0.0.1");
        m.put("courier.coordinator.port", port);
        m.put("courier.coordinator.http.port", 0);
        m.put("courier.coordinator.epoch", "20ms");
        m.put("courier.coordinator.scheduler.name", "fifo");
        m.put("courier.coordinator.scheduler.parameters.mode", "greedy"); // order-based FIFO
        CoordinatorSettings s = CoordinatorSettings.from(ConfigFactory.parseMap(m).withFallback(ConfigFactory.load()));
        return Coordinator.start(s, ConfigFactory.load(), ProxyCoordinationTest.class.getClassLoader());
    }

    private static CoordinationConfig config(int port) {
        Map<String, String> p = new HashMap<>();
        p.put(CoordinationConfig.ADDRESS, "127.0.0.1:" + port);
        p.put(CoordinationConfig.CLIENT_HOST, "127.0.0.1");
        p.put(CoordinationConfig.CAPACITY, "50000000");
        return CoordinationConfig.fromProperties(p).withTimings(20, 600, 100);
    }

    /** A condition that may ask the coordinator. */
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(String what, Condition condition) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.holds()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    private CoordinatorStatus status() throws Exception {
        return coordinator.status(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static String map(String job, int m) {
        return "attempt_" + job.substring(4) + "_m_00000" + m + "_0";
    }

    /** A fetch from node 1 to node 0 and what it must deliver. */
    private static final class Fetch {
        final SegmentStream stream;
        final byte[] expected;
        volatile long endNanos;

        Fetch(SegmentStream stream, byte[] expected) {
            this.stream = stream;
            this.expected = expected;
        }
    }

    private static List<Fetch> fetch(ProxyCluster c, String job, int from, int to, int records, int valueBytes)
            throws Exception {
        c.secrets().put(job, SECRET);
        List<Fetch> out = new ArrayList<>();
        for (int m = from; m < to; m++) {
            MapOutputFiles f = c.outputs(1).write(job, map(job, m), 1, records, valueBytes, job.hashCode() + m);
            out.add(new Fetch(c.proxy(0).fetch(c.id(1), job, map(job, m), 0, SECRET),
                    c.outputs(1).expectedSegment(f, 0)));
        }
        for (Fetch x : out) {
            x.stream.awaitHeader(20, TimeUnit.SECONDS); // the sender has started the stream
        }
        return out;
    }

    private static void readAll(List<Fetch> fetches) throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(fetches.size());
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (Fetch f : fetches) {
                fs.add(readers.submit(() -> {
                    byte[] got = ProxyCluster.readAll(f.stream);
                    f.endNanos = System.nanoTime();
                    assertArrayEquals(f.expected, got);
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            readers.shutdownNow();
        }
    }

    private static long bytes(List<Fetch> fs) {
        long n = 0;
        for (Fetch f : fs) {
            n += f.expected.length;
        }
        return n;
    }

    private CoordinatorStatus.FlowStatus flow(CoordinatorStatus s, String job) {
        for (CoordinatorStatus.FlowStatus f : s.flows()) {
            if (f.jobId.equals(job)) {
                return f;
            }
        }
        return null;
    }

    @Test
    void registersReportsFollowsDecisionsFallsBackAndReturns() throws Exception {
        int port = PortPairPicker.pick(0);
        coordinator = coordinator(port);
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults())) {
            final ProxyCoordination receiver = ProxyCoordination.start(config(port), c.proxy(0), "127.0.0.1:1000");
            final ProxyCoordination sender = ProxyCoordination.start(config(port), c.proxy(1), "127.0.0.1:1001");
            coordinations.add(receiver);
            coordinations.add(sender);

            // Registration: both nodes, named by their proxy ids, with their endpoints and capacity.
            await("both proxies coordinated", () -> receiver.mode() == Mode.COORDINATED
                    && sender.mode() == Mode.COORDINATED);
            CoordinatorStatus s0 = status();
            assertEquals(2, s0.nodes().size());
            for (CoordinatorStatus.NodeStatus n : s0.nodes()) {
                assertTrue(n.nodeId.equals(c.id(0)) || n.nodeId.equals(c.id(1)), n.nodeId);
                assertEquals(n.nodeId, n.proxyEndpoint);
                assertEquals(50_000_000L, n.upBytesPerSecond);
            }

            // HIGH is served first (its coflow arrives first), then LOW asks for large segments, then HIGH again:
            // under FIFO the coordinator ranks HIGH before LOW, and the sender must send HIGH's blocks first.
            List<Fetch> first = fetch(c, HIGH, 0, 1, 50, 100);
            readAll(first);
            final long firstBytes = bytes(first);
            List<Fetch> low = fetch(c, LOW, 0, 3, 1500, 1500);
            for (Fetch f : low) {
                assertTrue(f.expected.length > 2 << 20, "low segment too small: " + f.expected.length);
            }
            List<Fetch> high = fetch(c, HIGH, 1, 4, 300, 1000);
            final String peer = c.id(0);
            await("the coordinator's order in the sender's plan", () -> {
                SendPlan p = c.proxy(1).scheduler().plan();
                return p.mode() == PlanningMode.ORDER && p.classOf(HIGH, peer).rank() == 0
                        && p.classOf(LOW, peer).rank() == 1;
            });

            // The receiving half: node 0 admits fetches waiting for buffer by the same order.
            final String source = c.id(1);
            await("the coordinator's order in the receiver's plan", () -> {
                ReceivePlan p = c.proxy(0).receivePlan();
                return p.classOf(HIGH, source).rank() == 0 && p.classOf(LOW, source).rank() == 1;
            });

            // Reports: the coordinator sees what node 1 served, exactly (sent + pending = bytes requested).
            final long lowBytes = bytes(low);
            await("LOW's served bytes reported", () -> {
                CoordinatorStatus.FlowStatus f = flow(status(), LOW);
                return f != null && f.bytesSent > 0 && f.bytesSent + f.bytesPending == lowBytes;
            });
            CoordinatorStatus.FlowStatus lowFlow = flow(status(), LOW);
            assertEquals(c.id(1), lowFlow.srcNode);
            assertEquals(c.id(0), lowFlow.dstNode);
            assertFalse(lowFlow.finished);

            List<Fetch> all = new ArrayList<>(low);
            all.addAll(high);
            readAll(all);
            long lastHigh = 0;
            for (Fetch f : high) {
                lastHigh = Math.max(lastHigh, f.endNanos);
            }
            for (Fetch f : low) {
                assertTrue(f.endNanos > lastHigh, "a LOW stream finished before the higher-ranked HIGH coflow");
            }
            await("HIGH's bytes reported in full", () -> {
                CoordinatorStatus.FlowStatus f = flow(status(), HIGH);
                return f != null && f.bytesSent == bytes(high) + firstBytes && f.bytesPending == 0;
            });

            // The coordinator stops: both proxies fall back, and fetches keep completing under Stream's classes.
            coordinator.close();
            coordinator = null;
            await("fallback", () -> receiver.mode() == Mode.FALLBACK && sender.mode() == Mode.FALLBACK);
            await("no receive plan in fallback", () -> c.proxy(0).receivePlan().isEmpty());
            List<Fetch> later = fetch(c, LATER, 0, 3, 400, 1000);
            await("Stream's plan in fallback", () -> {
                SendPlan p = c.proxy(1).scheduler().plan();
                return p.mode() == PlanningMode.ORDER && p.classOf(LATER, peer).rank() == 0;
            });
            readAll(later);

            // A coordinator on the same address again: the proxies re-register by themselves and report; the
            // coflow seen during the fallback was remembered and is registered with the new coordinator.
            coordinator = coordinator(port);
            await("coordinated again", () -> receiver.mode() == Mode.COORDINATED
                    && sender.mode() == Mode.COORDINATED);
            final long laterBytes = bytes(later);
            await("the new coordinator knows LATER's flow", () -> {
                CoordinatorStatus.FlowStatus f = flow(status(), LATER);
                return f != null && f.bytesSent == laterBytes;
            });
            assertEquals(2, status().nodes().size());

            // Completion: the job ends on the node, its coflow leaves the coordinator.
            c.proxy(1).jobFinished(LATER);
            sender.jobFinished(LATER);
            await("LATER completed", () -> {
                for (CoordinatorStatus.CoflowStatus cs : status().coflows()) {
                    if (cs.jobId.equals(LATER)) {
                        return false;
                    }
                }
                return true;
            });
        }
    }
}
