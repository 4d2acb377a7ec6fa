package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.ConnectionsFrame;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.collection.IntObjectHashMap;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * The fetching side of a unified connection from this proxy to a peer proxy. Every job, map and reducer
 * of this node shares it (a pair has more than one only after the peer's SelectAndSplit split it). A
 * fetch is admitted (its FETCH sent) only when its window fits in both
 * the connection's and the node's in-flight budget; the others wait, and are admitted in the order of the
 * node's {@link ReceivePlan} ({@link AdmissionQueue}: strict rank, then buffer in proportion to weight, FIFO
 * inside a job), so the receive buffer goes to the coflows the schedule prefers. Streams are fed from
 * the connection's event loop; readers give credit back as they consume. When the connection is lost,
 * every stream on it fails with a retryable {@link ErrorCode#PEER_LOST} and the pool opens a new
 * connection for the next fetch. All state is confined to {@link #loop}.
 */
final class PeerConnection {
    private final String self;
    private final String peer;
    private final EventLoop loop;
    private final int window;
    private final long connectionBudget;
    private final MemoryBudget nodeBudget;
    private final ClientCounters counters;
    private final Runnable onClosed;
    private final IntConsumer onConnectionsHint;
    private final String connectionId;
    /** This connection's MACs (one Mac per calling thread: submitters and the event loop). */
    private final FetchAuthenticator auth = new FetchAuthenticator();
    /** Open streams by id: an int-keyed map, because every DATA frame looks its stream up (no boxing per frame). */
    private final IntObjectHashMap<ClientStream> streams = new IntObjectHashMap<>();
    private final AdmissionQueue waiting = new AdmissionQueue();
    private final Supplier<ReceivePlan> receivePlan;
    private final Runnable budgetWaiter = this::admitFromAnyThread;
    private Channel channel;
    private boolean closed;
    /** Whether the peer answered with its HANDSHAKE. */
    private boolean handshaken;
    private ErrorCode closedCode = ErrorCode.PEER_LOST;
    private int nextId = 1;
    private long reserved;
    /** Whether a flush of the CREDIT frames written in this event-loop turn is already scheduled. */
    private boolean creditFlushScheduled;
    private final Runnable flushCredits = this::flushCredits;
    /** Streams whose readers have half a window to grant back (any thread offers, the event loop drains). */
    private final Queue<ClientStream> pendingGrants = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean grantsScheduled = new AtomicBoolean();
    private final Runnable drainGrants = this::drainGrants;

    PeerConnection(String self, String peer, EventLoop loop, int window, long connectionBudget, MemoryBudget nodeBudget,
            ClientCounters counters, Runnable onClosed, IntConsumer onConnectionsHint) {
        this(self, peer, loop, window, connectionBudget, nodeBudget, counters, onClosed, onConnectionsHint,
                self + "->" + peer, () -> ReceivePlan.NONE);
    }

    /**
     * @param connectionId names this connection in ROUTE frames a relaying proxy sends its tasks
     * @param receivePlan the node's current receive plan (read at every admission, any thread may replace it)
     */
    PeerConnection(String self, String peer, EventLoop loop, int window, long connectionBudget, MemoryBudget nodeBudget,
            ClientCounters counters, Runnable onClosed, IntConsumer onConnectionsHint, String connectionId,
            Supplier<ReceivePlan> receivePlan) {
        this.self = self;
        this.receivePlan = receivePlan;
        this.connectionId = connectionId;
        this.peer = peer;
        this.loop = loop;
        this.window = window;
        this.connectionBudget = connectionBudget;
        this.nodeBudget = nodeBudget;
        this.counters = counters;
        this.onClosed = onClosed;
        this.onConnectionsHint = onConnectionsHint;
    }

    EventLoop loop() {
        return loop;
    }

    String peer() {
        return peer;
    }

    String connectionId() {
        return connectionId;
    }

    /** Queues a fetch (any thread). */
    void submit(ClientStream s, byte[] secret) {
        s.secret = secret.clone();
        s.requestMac = auth.requestMac(secret, s.job(), s.mapAttempt(), s.partition());
        enqueue(s);
    }

    /**
     * Queues a fetch whose request MAC was computed elsewhere (a relaying proxy forwarding a task's fetch): the
     * reply MAC is not verified here but handed on with the header, for the task to verify.
     */
    void submitPreauthenticated(ClientStream s, byte[] requestMac) {
        s.secret = null;
        s.requestMac = requestMac.clone();
        enqueue(s);
    }

    private void enqueue(ClientStream s) {
        s.attach(this);
        loop.execute(() -> {
            if (closed) {
                failOne(s, FetchException.ofConnection(closedCode, "connection to " + peer + " is closed"));
                return;
            }
            waiting.add(s);
            admit();
        });
    }

    // ---- lifecycle (event loop) ----

    void active(Channel ch) {
        this.channel = ch;
        counters.connectionOpened(peer);
        ch.writeAndFlush(new HandshakeFrame(self));
        admit();
    }

    void lost(String why) {
        fail(ErrorCode.PEER_LOST, "connection to " + peer + " lost: " + why);
    }

    /** The connection could not be opened: fails every stream with {@code code} (event loop). */
    void unreachable(ErrorCode code, String why) {
        fail(code, "cannot connect to " + peer + ": " + why);
    }

    private void fail(ErrorCode code, String message) {
        if (closed) {
            return;
        }
        closed = true;
        closedCode = code;
        nodeBudget.removeWaiter(budgetWaiter);
        List<ClientStream> all = new ArrayList<>(streams.values());
        all.addAll(waiting.drain());
        streams.clear();
        for (ClientStream s : all) {
            failOne(s, FetchException.ofConnection(code, message));
        }
        onClosed.run();
    }

    // ---- admission and credit ----

    private void admitFromAnyThread() {
        loop.execute(this::admit);
    }

    /** The node's receive plan changed (any thread): the next admissions follow it. */
    void planChanged() {
        loop.execute(this::admit);
    }

    /**
     * A relayed stream starts with its task's window (end-to-end credit), capped by the connection budget so that
     * it can always be admitted; a direct fetch with this connection's window.
     */
    private long creditOf(ClientStream s) {
        return s.initialCredit > 0 ? Math.min(s.initialCredit, connectionBudget) : window;
    }

    private void admit() {
        if (closed || channel == null) {
            return;
        }
        boolean wrote = false;
        ReceivePlan plan = receivePlan.get();
        while (!waiting.isEmpty()) {
            ClientStream s = waiting.peek(plan, peer, this::creditOf);
            int credit = (int) creditOf(s);
            int rank = plan.classOf(s.job(), peer).rank();
            if (reserved + credit > connectionBudget) {
                // This connection's own releases call admit(); on the node budget it waits with no preference, so
                // that it does not hold back other connections' streams that the node budget has room for.
                nodeBudget.addWaiter(budgetWaiter, Integer.MAX_VALUE);
                break;
            }
            if (!nodeBudget.tryReserve(credit, rank, budgetWaiter)) {
                nodeBudget.addWaiter(budgetWaiter, rank);
                break;
            }
            waiting.poll(s);
            s.reservation = credit;
            reserved += credit;
            waiting.admitted(s.job(), credit);
            s.id = nextId++;
            s.granted = credit;
            s.open = true;
            streams.put(s.id, s);
            channel.write(new FetchFrame(s.id, s.job(), s.mapAttempt(), s.partition(), credit, s.requestMac));
            wrote = true;
        }
        if (waiting.isEmpty()) {
            nodeBudget.removeWaiter(budgetWaiter);
        }
        if (wrote) {
            channel.flush();
        }
    }

    /**
     * A consumer consumed {@code n} bytes (any thread): grant them back in batches of half a window. Reader threads
     * hand their grants over through one queue: one event-loop task (and one flush) takes every grant queued while
     * it was pending, instead of a task per grant.
     */
    void consumed(ClientStream s, int n) {
        if (s.unacked.addAndGet(n) >= window / 2) {
            if (loop.inEventLoop()) {
                grant(s);
            } else {
                pendingGrants.offer(s);
                if (grantsScheduled.compareAndSet(false, true)) {
                    loop.execute(drainGrants);
                }
            }
        }
    }

    /** Event loop: the grants reader threads queued. */
    private void drainGrants() {
        grantsScheduled.set(false);
        ClientStream s;
        while ((s = pendingGrants.poll()) != null) {
            grant(s);
        }
    }

    private void grant(ClientStream s) {
        long n = s.unacked.getAndSet(0);
        if (n <= 0 || closed || !s.open || streams.get(s.id) != s) {
            return;
        }
        writeCredit(s, n);
    }

    /**
     * Sends {@code n} bytes of credit for {@code s} (event loop). Credits of many streams granted in one
     * event-loop turn (one socket read's frames, readers' hand-offs, a relay's task credits) leave in one write:
     * a system call and a wake-up of the sender per turn, not per grant.
     */
    private void writeCredit(ClientStream s, long n) {
        s.granted += n;
        channel.write(new CreditFrame(s.id, (int) n), channel.voidPromise());
        if (!creditFlushScheduled) {
            creditFlushScheduled = true;
            loop.execute(flushCredits);
        }
    }

    private void flushCredits() {
        creditFlushScheduled = false;
        if (channel != null) {
            channel.flush();
        }
    }

    /**
     * Grants {@code n} more bytes to {@code s} now (any thread): a relaying proxy passes its task's credit on
     * one for one instead of crediting as bytes arrive, so flow control stays end to end.
     */
    void credit(ClientStream s, int n) {
        if (n <= 0) {
            return;
        }
        Runnable grant = () -> {
            if (!closed && s.open && streams.get(s.id) == s) {
                writeCredit(s, n);
            }
        };
        if (loop.inEventLoop()) {
            grant.run();
        } else {
            loop.execute(grant);
        }
    }

    /** The consumer is done with a stream (EOF, close or failure seen): cancel it if needed, return its budget. */
    void streamDone(ClientStream s, boolean cancel) {
        loop.execute(() -> {
            if (waiting.remove(s)) {
                // Re-register with the best rank still waiting (or stop waiting), so that a stale better rank does
                // not hold back other connections' streams on the node budget.
                admit();
            }
            if (streams.get(s.id) == s && s.open) {
                streams.remove(s.id);
                s.open = false;
                if (cancel && channel != null && !closed) {
                    channel.writeAndFlush(new CancelFrame(s.id));
                }
            }
            release(s);
        });
    }

    private void release(ClientStream s) {
        if (s.id == 0 || s.released) {
            return; // never admitted, or already released
        }
        s.released = true;
        reserved -= s.reservation;
        waiting.released(s.job(), s.reservation);
        nodeBudget.release(s.reservation);
        admit();
    }

    // ---- inbound frames (event loop) ----

    void onHandshake(HandshakeFrame h) {
        // The peer's identity is informational: the connection was opened to the endpoint we chose.
        handshaken = true;
    }

    /**
     * {@code timeoutMillis} after the connection opened (event loop): a peer that has not answered with its
     * HANDSHAKE is no Courier proxy to wait for; its streams fail as unreachable and give their budget back.
     */
    void handshakeDeadline(Channel ch, long timeoutMillis) {
        if (!handshaken && !closed) {
            unreachable(ErrorCode.PEER_UNREACHABLE, "it accepted the connection but sent no HANDSHAKE within "
                    + timeoutMillis + " ms (not a Courier proxy?)");
            ch.close();
        }
    }

    /** The serving peer's SelectAndSplit gave this pair {@code count} network flows. */
    void onConnections(ConnectionsFrame f) {
        onConnectionsHint.accept(f.count());
    }

    void onHeader(SegmentHeaderFrame h) {
        ClientStream s = streams.get(h.streamId());
        if (s == null) {
            rejected(h.streamId());
            return;
        }
        if (s.secret != null && !auth.verifyReply(s.secret, s.requestMac, h.compressedLength(),
                h.rawLength(), h.replyMac())) {
            abort(s, ErrorCode.REPLY_AUTHENTICATION_FAILED, "reply MAC of " + s + " does not verify");
            return;
        }
        if (!h.mapAttempt().equals(s.mapAttempt()) || h.partition() != s.partition()) {
            abort(s, ErrorCode.MALFORMED_FRAME, "header for " + h.mapAttempt() + "/" + h.partition()
                    + " answers " + s);
            return;
        }
        s.replyMac = h.replyMac();
        s.expectedLength = h.compressedLength();
        s.onHeader(new SegmentHeader(h.mapAttempt(), h.partition(), h.compressedLength(), h.rawLength()));
    }

    void onData(DataFrame d) {
        ClientStream s = streams.get(d.streamId());
        int n = d.content().readableBytes();
        if (s == null) {
            d.release();
            rejected(d.streamId());
            return;
        }
        if (!s.hasHeader()) {
            d.release();
            abort(s, ErrorCode.MALFORMED_FRAME, "DATA before SEGMENT_HEADER on " + s);
            return;
        }
        s.wireReceived += n;
        if (s.wireReceived > s.granted) {
            d.release();
            abort(s, ErrorCode.MALFORMED_FRAME, "peer sent " + s.wireReceived + " bytes on " + s + " but only "
                    + s.granted + " were granted");
            return;
        }
        counters.bytesReceived.addAndGet(n);
        counters.blocksReceived.incrementAndGet();
        s.onData(d.content());
    }

    void onEnd(int streamId) {
        ClientStream s = streams.remove(streamId);
        if (s == null) {
            rejected(streamId);
            return;
        }
        s.open = false;
        if (s.wireReceived == s.expectedLength) {
            counters.segmentsCompleted.incrementAndGet();
        }
        s.onEnd();
    }

    void onError(ErrorFrame e) {
        if (e.streamId() == 0) {
            // A connection-level error: the peer closes the connection; lost() fails the streams.
            lost("peer reported " + e.code() + ": " + e.message());
            if (channel != null) {
                channel.close();
            }
            return;
        }
        ClientStream s = streams.remove(e.streamId());
        if (s == null) {
            rejected(e.streamId());
            return;
        }
        s.open = false;
        failOne(s, new FetchException(e.code(), "peer " + peer + ": " + e.message()));
    }

    /** Fails one stream, tells the peer to stop it, and returns its budget. */
    private void abort(ClientStream s, ErrorCode code, String message) {
        streams.remove(s.id);
        if (s.open && channel != null) {
            channel.writeAndFlush(new CancelFrame(s.id));
        }
        s.open = false;
        failOne(s, new FetchException(code, message));
    }

    private void failOne(ClientStream s, FetchException failure) {
        if (s.fail(failure)) {
            counters.streamsFailed.incrementAndGet();
        }
        release(s);
    }

    /**
     * A frame for a stream that is not open. Late frames of a stream we cancelled or failed are expected
     * and dropped quietly; a stream id we never assigned means the peer is confused, and is told so.
     */
    private void rejected(int streamId) {
        counters.rejectedFrames.incrementAndGet();
        if ((streamId <= 0 || streamId >= nextId) && channel != null && !closed) {
            channel.writeAndFlush(new ErrorFrame(streamId, ErrorCode.UNKNOWN_STREAM, "no stream " + streamId
                    + " was opened on this connection by " + self));
        }
    }
}
