package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.ChannelFrameReader;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.DirectBlockPool;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameBodies;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.PooledDataFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import io.courier.shuffle.proxy.protocol.RouteFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.protocol.Wire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A reduce task's one connection to its node's proxy (handshake role {@code TASK}, docs/protocol.md "Relay"),
 * on a plain blocking channel, to the relay's Unix domain socket where there is one ({@link TaskChannels}): a
 * task JVM starts cold for every reduce attempt, and loading and initialising Netty there cost 0.6–1.4 s per
 * reducer (docs/benchmarks.md), more than a small shuffle takes. Payloads are read into pooled direct buffers
 * ({@link ChannelFrameReader}) and copied once, by the consumer, into Hadoop's map output buffer. Every fetch is
 * a RELAY_FETCH; the answer comes back as a {@link RelayStream} with per-stream credit and the reply MAC
 * checked here. Fetches beyond {@code maxInFlight} bytes of windows wait until an open stream is done. When
 * the connection is lost every open and waiting stream fails with the retryable {@code PEER_LOST} marked as a
 * connection failure; the owner then opens a new connection.
 *
 * <p>Threads: owns one daemon reader thread, which runs every {@code on…} handler and exits when the socket
 * closes. {@link #fetch}, {@link #credit}, {@link #streamDone} and {@link #close} may be called from any
 * thread. Lock order: this connection, then the output stream; a stream's monitor is never held while
 * taking either.
 */
final class TaskSocketConnection {
    private static final Logger LOG = LoggerFactory.getLogger(TaskSocketConnection.class);

    private final String localProxy;
    /** The relay socket's path, or "tcp". */
    private final String via;
    private final RelayClientConfig config;
    private final RelayTally tally;
    private final SocketChannel channel;
    private final OutputStream out;
    private final DirectBlockPool blocks;
    private final Thread reader;
    /** Request MACs (callers' threads) and reply checks (the reader thread), one Mac per thread. */
    private final FetchAuthenticator auth = new FetchAuthenticator();
    /** Admitted streams by id: written under this connection's lock, read by the reader thread. */
    private final Map<Integer, RelayStream> open = new ConcurrentHashMap<>();
    // Guarded by this connection:
    private final ArrayDeque<RelayStream> waiting = new ArrayDeque<>();
    private long reserved;
    private volatile int nextId = 1;
    private volatile String lostReason;
    /** What the streams of a lost connection fail with: PEER_LOST, or the code the proxy closed it with. */
    private volatile ErrorCode lostCode = ErrorCode.PEER_LOST;
    /** Set with {@link #lostReason} when the proxy refused this connection for overload (at the handshake). */
    private volatile FetchException refusal;
    /** While the refusal holds: until this {@code System.nanoTime()}. */
    private volatile long retryAtNanos;

    private TaskSocketConnection(String localProxy, String via, RelayClientConfig config, RelayTally tally,
            SocketChannel channel) {
        this.localProxy = localProxy;
        this.via = via;
        this.config = config;
        this.tally = tally;
        this.channel = channel;
        this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 8192);
        // Enough free blocks for the windows of the streams a reducer typically has open (its fetch workers, one
        // stream each); a burst beyond allocates and is left to the garbage collector.
        this.blocks = new DirectBlockPool((int) Math.min(128, config.maxInFlight() / Wire.MAX_DATA + 1));
        this.reader = new Thread(() -> readLoop(new ChannelFrameReader(channel, blocks)),
                "courier-relay-reader-" + localProxy);
        this.reader.setDaemon(true);
    }

    /**
     * Connects to the proxy {@code localProxy} ({@code host:port}) as task {@code self} and starts the reader:
     * over the relay's domain socket {@code socket} where it is given and this JVM opens domain sockets, else over
     * loopback TCP. A given socket that cannot be connected is a failure, not a reason to try TCP: the socket's
     * directory is the proxy's alone, while a local process can bind the proxy's TCP port while the NodeManager
     * restarts and collect the request MACs sent there.
     *
     * @throws ConnectException naming the proxy (and the socket) if it cannot be reached within the connect timeout
     */
    static TaskSocketConnection open(String self, String localProxy, String socket, RelayClientConfig config,
            RelayTally tally) throws IOException {
        NodeAddress address = NodeAddress.parse(localProxy);
        boolean domain = socket != null && TaskChannels.domainSocketsSupported();
        String via = domain ? socket : "tcp";
        SocketChannel channel = null;
        try {
            channel = domain ? TaskChannels.openDomain(socket)
                    : TaskChannels.openTcp(address, config.connectTimeoutMillis());
            TaskSocketConnection c = new TaskSocketConnection(localProxy, via, config, tally, channel);
            c.write(new HandshakeFrame(self, HandshakeFrame.Role.TASK));
            if (c.awaitAdmission(self)) {
                c.reader.start();
            }
            return c;
        } catch (IOException e) {
            if (channel != null) {
                TaskChannels.closeQuietly(channel);
            }
            ConnectException ce = new ConnectException("cannot connect to the local Courier proxy " + localProxy
                    + (domain ? " on " + socket : "") + ": " + e);
            ce.initCause(e);
            throw ce;
        }
    }

    /**
     * Reads the proxy's answer to the handshake before any fetch is written: its HANDSHAKE (true: start reading),
     * or its overload refusal (false: this connection is returned lost, carrying the refusal, so that fetches fail
     * with it and the owner waits out the retry-after). Waiting here, one loopback round trip, is what makes the
     * refusal reliable: a fetch written after the proxy closed the connection would fail with a broken pipe and
     * read as a lost proxy instead. Runs on the opening thread, before the reader exists.
     *
     * @throws IOException if the proxy answers anything else, closes, or is silent for the connect timeout
     */
    private boolean awaitAdmission(String self) throws IOException {
        Frame first;
        try {
            // Blocking channel reads have no timeout: the handshake is read with a deadline, then the reader
            // thread starts on the channel, blocking again, with nothing read ahead.
            ChannelFrameReader handshake;
            try (TaskChannels.TimedReads timed = TaskChannels.timedReads(channel, config.connectTimeoutMillis())) {
                handshake = new ChannelFrameReader(timed, blocks);
                first = handshake.read();
            }
            if (handshake.hasBuffered()) {
                throw new IOException("the local proxy " + localProxy + " sent frames after its handshake before"
                        + " task " + self + " asked for anything");
            }
        } catch (ProtocolException e) {
            throw new IOException("the local proxy " + localProxy + " answered task " + self + "'s handshake with a"
                    + " malformed frame: " + e.getMessage(), e);
        }
        if (first instanceof HandshakeFrame) {
            return true;
        }
        if (first instanceof ErrorFrame && ((ErrorFrame) first).code() == ErrorCode.OVERLOADED) {
            ErrorFrame e = (ErrorFrame) first;
            retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(e.retryAfterMillis());
            refusal = FetchException.overloaded("the local proxy " + localProxy + " refused this task's connection: "
                    + e.message(), e.retryAfterMillis());
            lost("the local proxy refused the connection (OVERLOADED): " + e.message());
            return false;
        }
        throw new IOException("the local proxy " + localProxy + " answered task " + self + "'s handshake with "
                + (first == null ? "end of stream" : first));
    }

    /** How this connection reaches the proxy: the relay socket's path, or {@code tcp}. */
    String via() {
        return via;
    }

    boolean isLost() {
        return lostReason != null;
    }

    /** Asks the proxy to relay {@code partition} of {@code mapAttempt} of {@code job} from {@code source}. */
    RelayStream fetch(String source, String job, String mapAttempt, int partition, byte[] secret) {
        byte[] requestMac = auth.requestMac(secret, job, mapAttempt, partition);
        RelayStream s = new RelayStream(this, blocks, tally, source, job, mapAttempt, partition, secret.clone(),
                requestMac, config.streamWindow(), config.readTimeoutMillis());
        synchronized (this) {
            if (lostReason == null) {
                waiting.add(s);
                admit();
                return s;
            }
        }
        s.fail(lostFailure());
        return s;
    }

    /** Sends waiting fetches while their windows fit in {@code maxInFlight} (one always fits). */
    private synchronized void admit() {
        boolean wrote = false;
        try {
            while (!waiting.isEmpty() && (reserved == 0 || reserved + config.streamWindow() <= config.maxInFlight())) {
                RelayStream s = waiting.poll();
                s.id = nextId;
                nextId = s.id + 1;
                reserved += config.streamWindow();
                open.put(s.id, s);
                writeUnflushed(new RelayFetchFrame(s.id, s.source(), s.job(), s.mapAttempt(), s.partition(),
                        config.streamWindow(), s.requestMac));
                wrote = true;
            }
            if (wrote) {
                flush();
            }
        } catch (IOException e) {
            lost("cannot send a fetch: " + e);
        }
    }

    /** The consumer of {@code s} read {@code n} bytes: grant them to the source (any thread). */
    void credit(RelayStream s, int n) {
        if (lostReason != null || open.get(s.id) != s) {
            return;
        }
        try {
            write(new CreditFrame(s.id, n));
        } catch (IOException e) {
            lost("cannot send credit: " + e);
        }
    }

    /** The consumer is done with {@code s} (EOF, close, timeout): cancel it if asked, return its window. */
    void streamDone(RelayStream s, boolean cancel) {
        boolean wasOpen;
        synchronized (this) {
            waiting.remove(s);
            wasOpen = s.id != 0 && open.remove(s.id, s);
            if (wasOpen) {
                reserved -= config.streamWindow();
            }
        }
        if (wasOpen && cancel && lostReason == null) {
            try {
                write(new CancelFrame(s.id));
            } catch (IOException e) {
                lost("cannot send a cancel: " + e);
            }
        }
        if (wasOpen) {
            admit();
        }
    }

    /** Closes the connection; open and waiting streams fail. Joins the reader thread (bounded). */
    void close() {
        lost("closed by the task");
        try {
            reader.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- the reader thread ----

    private void readLoop(ChannelFrameReader frames) {
        try {
            Frame f;
            while ((f = frames.read()) != null) {
                dispatch(f);
            }
            lost("the local proxy closed the connection");
        } catch (ProtocolException e) {
            sendQuietly(e.toErrorFrame(0));
            lost("protocol violation: " + e.getMessage());
        } catch (IOException e) {
            lost(e.toString());
        } catch (RuntimeException e) {
            LOG.error("relay reader for {} failed", localProxy, e);
            lost("reader failed: " + e);
        }
    }

    private void dispatch(Frame f) throws ProtocolException {
        switch (f.type()) {
            case HANDSHAKE:
                return; // the proxy's identity is informational: we connected to the endpoint we chose
            case ROUTE: {
                RelayStream s = stream(f.streamId());
                if (s != null) {
                    s.onRoute(((RouteFrame) f).connection());
                }
                return;
            }
            case SEGMENT_HEADER:
                onHeader((SegmentHeaderFrame) f);
                return;
            case DATA: {
                RelayStream s = stream(f.streamId());
                ByteBuffer payload = ((PooledDataFrame) f).payload();
                if (s == null) {
                    blocks.give(payload);
                    return;
                }
                String violation = s.onData(payload); // s owns the block from here
                if (violation != null) {
                    abort(s, ErrorCode.MALFORMED_FRAME, violation);
                }
                return;
            }
            case END: {
                RelayStream s = stream(f.streamId());
                if (s != null) {
                    s.onEnd();
                }
                return;
            }
            case ERROR:
                onError((ErrorFrame) f);
                return;
            default:
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, f.type()
                        + " is not allowed from the local proxy " + localProxy);
        }
    }

    private void onHeader(SegmentHeaderFrame h) {
        RelayStream s = stream(h.streamId());
        if (s == null) {
            return;
        }
        if (!auth.verifyReply(s.secret, s.requestMac, h.compressedLength(), h.rawLength(),
                h.replyMac())) {
            abort(s, ErrorCode.REPLY_AUTHENTICATION_FAILED, "reply MAC of " + s + " does not verify");
            return;
        }
        if (!h.mapAttempt().equals(s.mapAttempt()) || h.partition() != s.partition()) {
            abort(s, ErrorCode.MALFORMED_FRAME, "header for " + h.mapAttempt() + "/" + h.partition() + " answers " + s);
            return;
        }
        String route = s.servedBy();
        if (route != null) {
            tally.servedBy(route);
        }
        s.onHeader(new SegmentHeader(h.mapAttempt(), h.partition(), h.compressedLength(), h.rawLength()));
    }

    private void onError(ErrorFrame e) {
        if (e.streamId() == 0) {
            lostCode = e.code();
            lost("the local proxy reported " + e.code() + ": " + e.message());
            return;
        }
        RelayStream s = stream(e.streamId());
        if (s != null) {
            release(s);
            s.fail(new FetchException(e.code(), "local proxy " + localProxy + ": " + e.message()));
        }
    }

    /**
     * The open stream with {@code id}, or {@code null}. Late frames of a stream we cancelled or failed are
     * expected and dropped quietly; an id never assigned means the proxy is confused, and is told so.
     */
    private RelayStream stream(int id) {
        RelayStream s = open.get(id);
        if (s == null) {
            tally.rejected();
            if (id <= 0 || id >= nextId) {
                sendQuietly(new ErrorFrame(Math.max(id, 0), ErrorCode.UNKNOWN_STREAM, "no stream " + id
                        + " was opened on this task connection"));
            }
        }
        return s;
    }

    /** Fails one stream for a violation of its own, tells the proxy to stop it, returns its window. */
    private void abort(RelayStream s, ErrorCode code, String message) {
        if (release(s) && lostReason == null) {
            sendQuietly(new CancelFrame(s.id));
        }
        s.fail(new FetchException(code, message));
    }

    private boolean release(RelayStream s) {
        synchronized (this) {
            if (!open.remove(s.id, s)) {
                return false;
            }
            reserved -= config.streamWindow();
        }
        admit();
        return true;
    }

    // ---- loss ----

    private void lost(String why) {
        List<RelayStream> all;
        synchronized (this) {
            if (lostReason != null) {
                return;
            }
            lostReason = why;
            all = new ArrayList<>(open.values());
            all.addAll(waiting);
            open.clear();
            waiting.clear();
            reserved = 0;
        }
        TaskChannels.closeQuietly(channel);
        FetchException failure = lostFailure();
        for (RelayStream s : all) {
            s.fail(failure);
        }
    }

    /**
     * While the proxy's overload refusal of this connection holds (its retry-after has not passed): that refusal,
     * with the time still to wait as its retry-after. Else null.
     */
    FetchException pendingRefusal() {
        FetchException r = refusal;
        if (r == null) {
            return null;
        }
        long left = TimeUnit.NANOSECONDS.toMillis(retryAtNanos - System.nanoTime());
        return left <= 0 ? null : FetchException.overloaded("the local proxy " + localProxy
                + " refused this task's connection less than " + r.retryAfterMillis() + " ms ago",
                (int) Math.max(1, left));
    }

    private FetchException lostFailure() {
        return FetchException.ofConnection(lostCode, "connection to the local proxy " + localProxy
                + " lost: " + lostReason);
    }

    // ---- output (any thread; the output stream is the lock) ----

    private void write(Frame f) throws IOException {
        synchronized (out) {
            out.write(FrameBodies.encode(f));
            out.flush();
        }
    }

    private void writeUnflushed(Frame f) throws IOException {
        synchronized (out) {
            out.write(FrameBodies.encode(f));
        }
    }

    private void flush() throws IOException {
        synchronized (out) {
            out.flush();
        }
    }

    private void sendQuietly(Frame f) {
        try {
            write(f);
        } catch (IOException e) {
            LOG.debug("could not send {} to {}: {}", f, localProxy, e.toString());
        }
    }
}
