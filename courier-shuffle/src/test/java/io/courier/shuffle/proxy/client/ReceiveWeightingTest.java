package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.courier.shuffle.proxy.testing.Frames;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Receiver-side credit weighting: with a bounded receive buffer (connection and node budgets of stream windows),
 * fetches waiting for buffer are admitted by the node's {@link ReceivePlan} — the preferred coflow's streams first
 * (order), or buffer in proportion to the flows' rates (rate) — on one connection and across connections. Runs on
 * Netty's EmbeddedChannel: the order of admissions is exact, nothing depends on timing.
 */
@Timeout(10)
class ReceiveWeightingTest {
    private static final String HIGH = "job_1_0001";
    private static final String LOW = "job_1_0002";
    private static final String PEER = "peer:2";
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
    private static final int WINDOW = 4096;

    private final ClientCounters counters = new ClientCounters();
    private final AtomicReference<ReceivePlan> plan = new AtomicReference<>(ReceivePlan.NONE);

    private final class Conn {
        final EmbeddedChannel ch = new EmbeddedChannel();
        final PeerConnection conn;
        final Map<Integer, SegmentStream> byId = new HashMap<>();
        final List<SegmentStream> submitted = new ArrayList<>();

        Conn(String peer, long connectionBudget, MemoryBudget node) {
            conn = new PeerConnection("me:1", peer, ch.eventLoop(), WINDOW, connectionBudget, node, counters, () -> { },
                    n -> { }, "me:1->" + peer, plan::get);
            ch.pipeline().addLast(new FrameDecoder(), new FrameEncoder(), new ClientConnectionHandler(conn));
        }

        void activate() {
            conn.active(ch);
            ch.runPendingTasks();
        }

        SegmentStream submit(String job, int partition) {
            SegmentStream s = new SegmentStream(conn.peer(), job, "attempt_1_0001_m_000000_0", partition);
            conn.submit(s, SECRET);
            submitted.add(s);
            ch.runPendingTasks();
            return s;
        }

        /** The jobs of the FETCH frames written since the last call, in order; remembers their streams. */
        List<String> fetched() {
            List<String> jobs = new ArrayList<>();
            for (Object o : Frames.written(ch)) {
                if (o instanceof FetchFrame) {
                    FetchFrame f = (FetchFrame) o;
                    jobs.add(f.job());
                    for (SegmentStream s : submitted) {
                        if (s.job().equals(f.job()) && s.partition() == f.partition()) {
                            byId.put(f.streamId(), s);
                        }
                    }
                } else {
                    assertTrue(o instanceof HandshakeFrame || o instanceof io.courier.shuffle.proxy.protocol.CancelFrame,
                            "unexpected frame " + o);
                }
            }
            return jobs;
        }

        /** The consumer of an admitted stream of {@code job} gives up on it: its window returns. */
        void finishOne(String job) {
            for (Map.Entry<Integer, SegmentStream> e : byId.entrySet()) {
                if (e.getValue().job().equals(job)) {
                    SegmentStream s = byId.remove(e.getKey());
                    s.close();
                    ch.runPendingTasks();
                    return;
                }
            }
            throw new AssertionError("no admitted stream of " + job);
        }

        long admitted(String job) {
            long n = 0;
            for (SegmentStream s : byId.values()) {
                n += s.job().equals(job) ? 1 : 0;
            }
            return n;
        }
    }

    private static int count(List<String> jobs, String job) {
        int n = 0;
        for (String j : jobs) {
            n += j.equals(job) ? 1 : 0;
        }
        return n;
    }

    @Test
    void theHigherOrderCoflowGetsFreedBufferFirstThoughItAskedLater() {
        plan.set(ReceivePlan.builder().rank(HIGH, PEER, 0).rank(LOW, PEER, 1).build());
        Conn c = new Conn(PEER, 2 * WINDOW, new MemoryBudget(64 * WINDOW));
        c.activate();
        for (int p = 0; p < 4; p++) {
            c.submit(LOW, p);
        }
        for (int p = 0; p < 4; p++) {
            c.submit(HIGH, p);
        }
        assertEquals(Arrays.asList(LOW, LOW), c.fetched(), "the buffer was free when LOW asked");
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String job = c.byId.values().iterator().next().job();
            c.finishOne(job);
            order.addAll(c.fetched());
        }
        assertEquals(Arrays.asList(HIGH, HIGH, HIGH, HIGH, LOW, LOW), order,
                "every window LOW returns goes to HIGH while HIGH waits");
    }

    @Test
    void ratesShareTheBufferInProportionWhileBothWait() {
        plan.set(ReceivePlan.builder().rate(HIGH, PEER, 300e6).rate(LOW, PEER, 100e6).build());
        Conn c = new Conn(PEER, 8 * WINDOW, new MemoryBudget(64 * WINDOW));
        // LOW's fetches come first, all while the connection is still being opened.
        for (int p = 0; p < 20; p++) {
            c.submit(LOW, p);
        }
        for (int p = 0; p < 20; p++) {
            c.submit(HIGH, p);
        }
        c.activate();
        List<String> first = c.fetched();
        assertEquals(8, first.size());
        assertEquals(6, count(first, HIGH), "3:1 rates, 8 windows: " + first);
        assertEquals(2, count(first, LOW), "3:1 rates, 8 windows: " + first);
        // As streams finish (oldest first, either job), the buffer each job holds stays at 3:1 within a window.
        for (int i = 0; i < 20; i++) {
            c.finishOne(i % 3 == 0 ? LOW : HIGH);
            c.fetched();
            long high = c.admitted(HIGH);
            long low = c.admitted(LOW);
            assertEquals(8, high + low, "the buffer stays full while both wait");
            assertTrue(Math.abs(high - 3 * low) <= 4 && Math.abs(high - 6) <= 1,
                    "step " + i + ": HIGH holds " + high + " windows, LOW " + low);
        }
    }

    @Test
    void withoutAPlanJobsShareTheBufferEquallyAndFifoInsideAJob() {
        Conn c = new Conn(PEER, 4 * WINDOW, new MemoryBudget(64 * WINDOW));
        for (int p = 0; p < 6; p++) {
            c.submit(LOW, p);
        }
        c.submit(HIGH, 0);
        c.submit(HIGH, 1);
        c.activate();
        List<String> first = c.fetched();
        assertEquals(2, count(first, HIGH), "fair among jobs, not FIFO across them: " + first);
        assertEquals(2, count(first, LOW), first.toString());
        List<Integer> lowPartitions = new ArrayList<>();
        for (SegmentStream s : c.byId.values()) {
            if (s.job().equals(LOW)) {
                lowPartitions.add(s.partition());
            }
        }
        lowPartitions.sort(null);
        assertEquals(Arrays.asList(0, 1), lowPartitions, "FIFO inside a job");
    }

    @Test
    void aNewPlanTakesEffectAtTheNextAdmission() {
        Conn c = new Conn(PEER, 1 * WINDOW, new MemoryBudget(64 * WINDOW));
        c.activate();
        c.submit(LOW, 0);
        c.submit(LOW, 1);
        c.submit(HIGH, 0);
        assertEquals(Arrays.asList(LOW), c.fetched());
        // Under no plan LOW (nothing admitted once its stream ends) and HIGH would tie and LOW asked first; the
        // new plan prefers HIGH.
        plan.set(ReceivePlan.builder().rank(HIGH, PEER, 0).build());
        c.conn.planChanged();
        c.ch.runPendingTasks();
        c.finishOne(LOW);
        assertEquals(Arrays.asList(HIGH), c.fetched());
    }

    @Test
    void freedNodeBufferGoesToTheBetterRankOnAnotherConnection() {
        String other = "peer:3";
        plan.set(ReceivePlan.builder().rank(HIGH, other, 0).rank(LOW, PEER, 1).build());
        MemoryBudget node = new MemoryBudget(2 * WINDOW);
        Conn lowConn = new Conn(PEER, 8 * WINDOW, node);
        Conn highConn = new Conn(other, 8 * WINDOW, node);
        lowConn.activate();
        highConn.activate();
        for (int p = 0; p < 4; p++) {
            lowConn.submit(LOW, p);
        }
        assertEquals(Arrays.asList(LOW, LOW), lowConn.fetched(), "the node budget holds two windows");
        highConn.submit(HIGH, 0);
        highConn.submit(HIGH, 1);
        assertTrue(highConn.fetched().isEmpty(), "no room yet");
        // LOW's stream ends: its own connection admits first (same event loop), but HIGH waits with a better rank.
        lowConn.finishOne(LOW);
        assertTrue(lowConn.fetched().isEmpty(), "LOW must not take the window HIGH waits for");
        highConn.ch.runPendingTasks();
        assertEquals(Arrays.asList(HIGH), highConn.fetched());
        lowConn.finishOne(LOW);
        highConn.ch.runPendingTasks();
        assertEquals(Arrays.asList(HIGH), highConn.fetched());
        // HIGH waits no more: the next window LOW frees goes to LOW again.
        lowConn.ch.runPendingTasks();
        highConn.finishOne(HIGH);
        lowConn.ch.runPendingTasks();
        assertEquals(Arrays.asList(LOW), lowConn.fetched());
        assertEquals(2 * WINDOW, node.used());
    }

    @Test
    void aBetterRankThatGivesUpWhileWaitingHoldsNothingBack() {
        String other = "peer:3";
        // On peer:3 HIGH is rank 0 and LOW rank 5; on peer:2 LOW is rank 1.
        plan.set(ReceivePlan.builder().rank(HIGH, other, 0).rank(LOW, other, 5).rank(LOW, PEER, 1).build());
        MemoryBudget node = new MemoryBudget(2 * WINDOW);
        Conn lowConn = new Conn(PEER, 8 * WINDOW, node);
        Conn highConn = new Conn(other, 8 * WINDOW, node);
        lowConn.activate();
        highConn.activate();
        for (int p = 0; p < 3; p++) {
            lowConn.submit(LOW, p);
        }
        assertEquals(Arrays.asList(LOW, LOW), lowConn.fetched());
        highConn.submit(LOW, 7);
        SegmentStream high = highConn.submit(HIGH, 0);
        high.close(); // the reducer gives up before any buffer was free
        highConn.ch.runPendingTasks();
        lowConn.finishOne(LOW);
        assertEquals(Arrays.asList(LOW), lowConn.fetched(), "only a worse rank (5) waits on peer:3 now");
        assertTrue(highConn.fetched().isEmpty());
    }
}
