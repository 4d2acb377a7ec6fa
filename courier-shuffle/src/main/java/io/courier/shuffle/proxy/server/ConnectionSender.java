package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.protocol.ConnectionsFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.schedule.PeerPlan;
import io.courier.shuffle.proxy.schedule.SendPlan;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.schedule.StreamClass;
import io.courier.shuffle.proxy.schedule.TokenBucket;
import io.courier.shuffle.proxy.source.SharedFileRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import io.netty.util.concurrent.ScheduledFuture;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sends the blocks of one connection's streams in the order the {@link SendPlan} asks for: the pair waits
 * when SelectAndSplit did not start it; blocks are paced by a {@link TokenBucket} at the unified rate;
 * among the streams that have data and credit, a {@link StrideSchedule} picks the next (best rank first,
 * then the smallest stride pass). At most {@code sendBufferBytes} are queued in the
 * channel at a time, so a slow network never makes the sender buffer without bound (file regions are
 * not counted by Netty's writability, hence our own count). Confined to the channel's event loop.
 */
final class ConnectionSender {
    private final Channel channel;
    private final SendScheduler scheduler;
    private final ServerCounters counters;
    private final long sendBufferBytes;
    private final boolean zeroCopy;
    /**
     * The blocks picked in this pass and not yet written (stream, length, payload): they leave under one DATA_RUN
     * header when the run is full, before any other frame and at the end of the pass (a lone block as a DATA
     * frame). One header per block cost ≈ 15 % of the throughput on loopback (docs/benchmarks.md); the order and
     * size of the blocks, and so the schedule, are the same either way.
     */
    private final int[] runStreams;
    private final int[] runLengths;
    private final Object[] runPayloads;
    private int runSize;
    private final Map<Integer, OutboundStream> streams = new LinkedHashMap<>();
    /** The same streams, in the order they send. */
    private final StrideSchedule schedule = new StrideSchedule();
    private final Runnable onPlanChange = this::planChangedFromAnyThread;
    /** A plan change noticed on another thread: one replan queued on this event loop however many changes. */
    private final CoalescedTask replanFromElsewhere;
    /** Open streams per job on this connection (each gets an equal share of its class weight). */
    private final Map<String, int[]> streamsOfJob = new HashMap<>();
    private final TokenBucket bucket;
    /**
     * The largest block of a paced connection: its burst, between {@link #MIN_PACED_BLOCK} and a full block.
     * A sender converging with others on one switch port adds one block to that port's queue at line rate
     * however well the bucket averages, so a shallow burst must also mean small blocks to bound the queue.
     */
    private final int pacedBlock;
    /** Below this, per-frame costs outweigh what a smaller block saves in queueing. */
    static final int MIN_PACED_BLOCK = 4096;
    /** Wake-ups closer than this are not worth a timer of their own (and a later one is kept if this close). */
    private static final long MIN_WAKEUP_NANOS = 100_000L;
    private String peer;
    private PeerPlan peerPlan = PeerPlan.UNPLANNED;
    private long queued;
    private ScheduledFuture<?> wakeup;
    private boolean closed;
    private boolean pumping;
    /** The connection count last suggested to the peer (SelectAndSplit's flows for the pair); 1 is implied. */
    private int hintedConnections = 1;
    private boolean pumpAgain;
    /**
     * Called when a pass's blocks have all left: their bytes leave the send queue; once the queue is half
     * empty the sender refills it. One listener object for all passes; the sizes of the passes in flight
     * are kept oldest first, as writes complete in order.
     */
    private final PassWritten bytesLeft = new PassWritten();
    private final ArrayDeque<Long> sizes = new ArrayDeque<>();
    /** Streams that sent blocks in the current pass and have not told the scheduler yet. */
    private final List<OutboundStream> unreported = new ArrayList<>();

    ConnectionSender(Channel channel, SendScheduler scheduler, ServerCounters counters, SendSettings send) {
        this.channel = channel;
        this.scheduler = scheduler;
        this.counters = counters;
        this.sendBufferBytes = send.sendBufferBytes();
        this.zeroCopy = send.zeroCopy();
        this.runStreams = new int[send.blocksPerRun()];
        this.runLengths = new int[send.blocksPerRun()];
        this.runPayloads = new Object[send.blocksPerRun()];
        this.bucket = new TokenBucket(Double.POSITIVE_INFINITY, scheduler.pacingBurstBytes(), System.nanoTime());
        this.pacedBlock = (int) Math.max(MIN_PACED_BLOCK, Math.min(Wire.MAX_DATA, scheduler.pacingBurstBytes()));
        this.replanFromElsewhere = new CoalescedTask(channel.eventLoop(), () -> {
            replan();
            pump();
        });
    }

    void start(String peerNode) {
        this.peer = peerNode;
        scheduler.addListener(peer, onPlanChange);
        scheduler.connectionsChanged(peer, +1);
        replan();
    }

    boolean has(int streamId) {
        return streams.containsKey(streamId);
    }

    int openStreams() {
        return streams.size();
    }

    void add(OutboundStream s) {
        s.flowKey = SendScheduler.flowKey(s.job, peer);
        streams.put(s.id, s);
        countStream(s.job, +1);
        scheduler.streamStarted(s.job, peer, s.remaining);
        // streamStarted may notify us through the event loop; make the new stream's class right now.
        replan();
        schedule.add(s);
        pump();
    }

    void credit(int streamId, int bytes) {
        OutboundStream s = streams.get(streamId);
        if (s == null) {
            return; // the stream ended or was cancelled while the credit was in flight
        }
        boolean wasEligible = s.eligible();
        s.credit += bytes;
        if (!wasEligible) {
            schedule.resumed(s);
        }
        pump();
    }

    void cancel(int streamId) {
        OutboundStream s = remove(streamId);
        if (s != null) {
            finish(s);
            pump();
        }
    }

    /** The connection is gone: release every stream. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.removeListener(onPlanChange);
        if (peer != null) {
            scheduler.connectionsChanged(peer, -1);
        }
        if (wakeup != null) {
            wakeup.cancel(false);
        }
        discardRun();
        for (OutboundStream s : new ArrayList<>(streams.values())) {
            finish(s);
        }
        streams.clear();
        streamsOfJob.clear();
        schedule.clear();
    }

    private void finish(OutboundStream s) {
        report(s);
        s.closeFileWhenWritten();
        scheduler.streamEnded(s.job, peer, s.remaining);
        // The job's streams left here share its class weight among fewer: re-read the plan even when the
        // scheduler did not call us (it only calls a connection whose peer's plan or classes changed).
        replan();
    }

    /**
     * The scheduler's listener: called on the thread that changed the plan of this connection's peer. On this
     * event loop (this connection's own stream starts and ends, or another connection's on the same loop) the new
     * plan applies at once, before the caller goes on; from another thread one replan is queued (coalesced: it
     * reads the newest plan when it runs).
     */
    private void planChangedFromAnyThread() {
        if (channel.eventLoop().inEventLoop()) {
            replan();
            pump();
        } else {
            replanFromElsewhere.request();
        }
    }

    /** Re-reads the plan: the pair's state and rate, and each stream's class and share of its class weight. */
    private void replan() {
        if (closed || peer == null) {
            return;
        }
        SendPlan plan = scheduler.plan();
        peerPlan = plan.peer(peer);
        long now = System.nanoTime();
        // The pair's unified rate is shared by all its connections (more than one after a split).
        double rate = peerPlan.rate() / scheduler.connectionsFrom(peer);
        if (Double.compare(bucket.rate(), rate) != 0) {
            bucket.setRate(rate, now);
        }
        if (peerPlan.running() && peerPlan.flows() != hintedConnections && channel.isActive()) {
            hintedConnections = peerPlan.flows();
            channel.writeAndFlush(new ConnectionsFrame(hintedConnections));
        }
        for (OutboundStream s : streams.values()) {
            StreamClass c = plan.classOf(s.flowKey);
            schedule.reclassify(s, c, c.weight() / streamsOfJob.get(s.job)[0]);
        }
    }

    private void countStream(String job, int delta) {
        int[] n = streamsOfJob.get(job);
        if (n == null) {
            n = new int[1];
            streamsOfJob.put(job, n);
        }
        n[0] += delta;
        if (n[0] == 0) {
            streamsOfJob.remove(job);
        }
    }

    void pump() {
        if (pumping) {
            // Re-entered from a scheduler notification inside the loop below: let the loop run once more.
            pumpAgain = true;
            return;
        }
        pumping = true;
        try {
            do {
                pumpAgain = false;
                pumpOnce();
            } while (pumpAgain);
        } finally {
            pumping = false;
        }
    }

    private void pumpOnce() {
        if (closed || !channel.isActive()) {
            return;
        }
        boolean wrote = false;
        long passBytes = 0;
        while (queued < sendBufferBytes && channel.isWritable() && peerPlan.running()) {
            OutboundStream s = schedule.pick();
            if (s == null) {
                break;
            }
            long now = System.nanoTime();
            if (!bucket.ready(now)) {
                scheduleWakeup(bucket.nanosUntilReady(now));
                break;
            }
            int n = (int) Math.min(bucket.paced() ? pacedBlock : Wire.MAX_DATA, Math.min(s.credit, s.remaining));
            try {
                writeBlock(s, n);
            } catch (IOException | RuntimeException e) {
                writeRun();
                remove(s.id);
                // The error frame completes after every block of this stream written in this pass (their writes
                // have no promise): only then may finish() close the file under them.
                s.lastWrite = channel.write(new ErrorFrame(s.id,
                        ErrorCode.IO_ERROR, "reading " + s.segment + ": "
                        + e.getMessage()));
                finish(s);
                wrote = true;
                continue;
            }
            wrote = true;
            passBytes += n;
            bucket.take(n);
            queued += n;
            counters.bytesSent.addAndGet(n);
            if (s.unreported == 0) {
                unreported.add(s);
            }
            s.unreported += n;
            s.position += n;
            s.remaining -= n;
            s.credit -= n;
            schedule.sent(s, n);
            if (s.remaining == 0) {
                writeRun();
                s.lastWrite = channel.write(new EndFrame(s.id));
                remove(s.id);
                counters.streamsServed.incrementAndGet();
                finish(s);
            }
        }
        writeRun();
        if (passBytes > 0) {
            // One completion for the whole pass: an empty write queued behind the pass's blocks completes once
            // they all left (writes complete in order), so no block needs a promise and listener of its own.
            ChannelFuture passWritten = channel.write(Unpooled.EMPTY_BUFFER);
            sizes.addLast(passBytes);
            passWritten.addListener(bytesLeft);
            for (OutboundStream u : unreported) {
                if (u.remaining > 0) {
                    u.lastWrite = passWritten;
                }
            }
        }
        for (OutboundStream u : unreported) {
            report(u);
        }
        unreported.clear();
        if (wrote) {
            channel.flush();
        }
    }

    /** Tells the scheduler what {@code s} sent since the last report (its pending bytes feed the next plan). */
    private void report(OutboundStream s) {
        if (s.unreported > 0) {
            scheduler.sent(s.flowKey, s.unreported);
            s.unreported = 0;
        }
    }

    private OutboundStream remove(int streamId) {
        OutboundStream s = streams.remove(streamId);
        if (s != null) {
            countStream(s.job, -1);
            schedule.remove(s);
        }
        return s;
    }

    /**
     * Adds one block to the pass's run (its payload a zero-copy file region, or the bytes read into a buffer);
     * a full run is written at once.
     */
    private void writeBlock(OutboundStream s, int n) throws IOException {
        Object payload = zeroCopy ? new SharedFileRegion(s.file, s.position, n) : read(s, n);
        runStreams[runSize] = s.id;
        runLengths[runSize] = n;
        runPayloads[runSize] = payload;
        if (++runSize == runPayloads.length) {
            writeRun();
        }
    }

    /**
     * Writes the run's header and then its payloads, nothing in between (a lone block as a DATA frame, so with
     * runs of one the wire carries exactly the DATA frames of protocol version 1), already encoded: the frame
     * encoder passes them through. No write has a promise of its own (see {@link #pumpOnce}); a failed write
     * closes the connection, which fails every stream.
     */
    private void writeRun() {
        if (runSize == 0) {
            return;
        }
        // The unsafe void promise, unlike channel.voidPromise(), does not fire exceptionCaught for each of the
        // blocks still queued when the connection breaks; channelInactive handles that once.
        ChannelPromise none = channel.unsafe().voidPromise();
        int n = runSize;
        // Emptied first: a write that closes the connection re-enters close(), which must not release these.
        runSize = 0;
        channel.write(n == 1 ? FrameEncoder.dataHeader(channel.alloc(), runStreams[0], runLengths[0])
                : FrameEncoder.dataRunHeader(channel.alloc(), runStreams, runLengths, n), none);
        for (int i = 0; i < n; i++) {
            Object payload = runPayloads[i];
            runPayloads[i] = null;
            channel.write(payload, none);
        }
    }

    /** Releases the payloads of a run that will not be written (the connection closed inside a pass). */
    private void discardRun() {
        for (int i = 0; i < runSize; i++) {
            ReferenceCountUtil.release(runPayloads[i]);
            runPayloads[i] = null;
        }
        runSize = 0;
    }

    private ByteBuf read(OutboundStream s, int n) throws IOException {
        ByteBuf buf = channel.alloc().ioBuffer(n);
        try {
            int read = 0;
            while (read < n) {
                int r = buf.writeBytes(s.file, s.position + read, n - read);
                if (r < 0) {
                    throw new IOException("unexpected end of " + s.segment.file() + " at " + (s.position + read));
                }
                read += r;
            }
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
        return buf;
    }

    /**
     * Wakes the sender when the bucket is out of debt. A pending wake-up set at a lower rate (for a block taken at
     * a few bytes a second: minutes away) is replaced when the rate rises: left in place, it made the sender send
     * one block per plan change or credit, about one every 13 s at 128 KiB/s under Aalo, which starved the jobs
     * queued behind that flow (docs/benchmarks.md, "The send order under moving rates, and a stale pacing timer").
     */
    private void scheduleWakeup(long nanos) {
        long delay = Math.max(nanos, MIN_WAKEUP_NANOS);
        if (wakeup != null && !wakeup.isDone()) {
            if (wakeup.getDelay(TimeUnit.NANOSECONDS) <= delay + MIN_WAKEUP_NANOS) {
                return;
            }
            wakeup.cancel(false);
        }
        wakeup = channel.eventLoop().schedule(() -> {
            wakeup = null;
            pump();
        }, delay, TimeUnit.NANOSECONDS);
    }

    private final class PassWritten implements GenericFutureListener<Future<Void>> {
        @Override
        public void operationComplete(Future<Void> f) {
            Long size = sizes.pollFirst();
            queued -= size == null ? 0 : size;
            if (queued < sendBufferBytes / 2) {
                pump();
            }
        }
    }

    /** Called when the channel becomes writable again. */
    void writable() {
        pump();
    }
}
