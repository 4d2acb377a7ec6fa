package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.ProxyClient;
import io.courier.shuffle.proxy.client.RelaySink;
import io.courier.shuffle.proxy.client.RelayedFetch;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.protocol.RelayFetchFrame;
import io.courier.shuffle.proxy.protocol.RouteFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.server.ProtocolErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

/**
 * One local task's connection, after its TASK handshake (docs/protocol.md, "Relay"): each RELAY_FETCH becomes a
 * stream on this proxy's shared connection to the source proxy, whose SEGMENT_HEADER (preceded by ROUTE),
 * DATA, END or ERROR are forwarded under the task's stream id. The task's CREDIT frames are passed upstream one
 * for one and the upstream stream starts with the task's initial credit, so what the relay holds for a stream
 * never exceeds that window; CANCEL, and the connection closing, cancel upstream. All state is confined to this
 * channel's event loop; upstream callbacks hop onto it.
 */
final class RelayConnectionHandler extends SimpleChannelInboundHandler<Frame> {
    private static final Logger LOG = LoggerFactory.getLogger(RelayConnectionHandler.class);
    private final String nodeId;
    private final String task;
    private final ProxyClient client;
    private final RelayStats stats;
    /** Null when task users are not checked. */
    private final TaskUserGate gate;
    private final int maxOpenStreams;
    private final Map<Integer, Relay> streams = new HashMap<>();
    private Channel channel;
    private boolean flushScheduled;

    RelayConnectionHandler(String nodeId, String task, ProxyClient client, RelayStats stats, TaskUserGate gate,
            int maxOpenStreams) {
        this.gate = gate;
        this.maxOpenStreams = maxOpenStreams;
        this.nodeId = nodeId;
        this.task = task;
        this.client = client;
        this.stats = stats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) throws Exception {
        switch (frame.type()) {
            case RELAY_FETCH:
                open((RelayFetchFrame) frame);
                break;
            case CREDIT: {
                Relay r = streams.get(frame.streamId());
                if (r != null) {
                    r.credited(((CreditFrame) frame).bytes());
                }
                break;
            }
            case CANCEL: {
                Relay r = streams.remove(((CancelFrame) frame).streamId());
                if (r != null) {
                    r.cancel();
                }
                break;
            }
            case ERROR: {
                // The task's PeerConnection reports frames for streams it never opened; nothing to undo here.
                ErrorFrame e = (ErrorFrame) frame;
                LOG.warn("task {} reported {} on stream {}: {}", task, e.code(), e.streamId(), e.message());
                if (e.streamId() == 0) {
                    ctx.close();
                }
                break;
            }
            default:
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, frame.type()
                        + " is not allowed from a task connection (" + task + ")");
        }
    }

    private void open(RelayFetchFrame f) throws ProtocolException {
        if (gate != null) {
            gate.check(f.job());
        }
        if (streams.containsKey(f.streamId())) {
            throw new ProtocolException(ErrorCode.DUPLICATE_STREAM, "relay stream " + f.streamId() + " of " + task
                    + " is already open");
        }
        boolean full = streams.size() >= maxOpenStreams;
        Relay r = new Relay(f);
        streams.put(f.streamId(), r);
        stats.streamsOpened.incrementAndGet();
        if (f.initialCredit() == 0) {
            // It could never move a byte, yet would hold a stream and its file open at the source.
            r.failed(new FetchException(ErrorCode.MALFORMED_FRAME, "RELAY_FETCH grants no initial credit"));
            return;
        }
        if (full) {
            r.failed(new FetchException(ErrorCode.TOO_MANY_STREAMS, "task " + task + " has " + maxOpenStreams
                    + " relayed streams open, the most one task connection may hold"
                    + " (courier.proxy.connection.max-open-streams)"));
            return;
        }
        try {
            r.upstream = client.relay(f.source(), f.job(), f.mapAttempt(), f.partition(), f.mac(), f.initialCredit(),
                    r);
        } catch (IllegalArgumentException e) {
            r.failed(new FetchException(ErrorCode.MALFORMED_FRAME, "bad source proxy in " + f + ": " + e.getMessage()));
        } catch (IllegalStateException e) {
            r.failed(new FetchException(ErrorCode.SHUTTING_DOWN, "proxy " + nodeId + " is closing: " + e.getMessage()));
        }
    }

    /**
     * Writes {@code f} to the task (this channel's loop); one flush per event-loop turn carries every frame
     * relayed in that turn, instead of a system call per 64 KiB block.
     */
    private void send(Frame f) {
        channel.write(f, channel.voidPromise());
        if (!flushScheduled) {
            flushScheduled = true;
            channel.eventLoop().execute(() -> {
                flushScheduled = false;
                channel.flush();
            });
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        List<Relay> open = new ArrayList<>(streams.values());
        streams.clear();
        for (Relay r : open) {
            r.cancel();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ProtocolException pe = ProtocolErrors.find(cause);
        ErrorFrame err = pe != null ? pe.toErrorFrame(0)
                : new ErrorFrame(0, ErrorCode.IO_ERROR, String.valueOf(cause));
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(err).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    /**
     * One relayed stream. The {@link RelaySink} callbacks run on the upstream connection's event loop and hop
     * to this channel's loop; everything else runs on this channel's loop.
     */
    private final class Relay implements RelaySink {
        private final RelayFetchFrame request;
        private final int id;
        RelayedFetch upstream;
        private long received;
        private long credited;

        Relay(RelayFetchFrame request) {
            this.request = request;
            this.id = request.streamId();
        }

        private boolean live() {
            return streams.get(id) == this;
        }

        /**
         * Runs {@code r} on the task channel's loop: at once when the upstream connection shares that loop (its
         * callbacks then all run inline, so their order holds), else as a task; if that loop is gone (proxy
         * stopping) drops {@code held}.
         */
        private void onTaskLoop(Runnable r, ByteBuf held) {
            if (channel.eventLoop().inEventLoop()) {
                r.run();
                return;
            }
            try {
                channel.eventLoop().execute(r);
            } catch (RejectedExecutionException e) {
                if (held != null) {
                    held.release();
                }
            }
        }

        @Override
        public void onHeader(SegmentHeader h, byte[] replyMac, String connectionId) {
            onTaskLoop(() -> {
                if (!live()) {
                    return;
                }
                send(new RouteFrame(id, connectionId));
                send(new SegmentHeaderFrame(id, h.mapAttempt(), h.partition(), h.compressedLength(), h.rawLength(),
                        replyMac));
            }, null);
        }

        @Override
        public void onData(ByteBuf data) {
            onTaskLoop(() -> {
                if (!live()) {
                    data.release();
                    return;
                }
                int n = data.readableBytes();
                received += n;
                stats.bytesRelayed.addAndGet(n);
                stats.outstandingBytes.addAndGet(n);
                stats.streamOutstanding(received - credited);
                send(new DataFrame(id, data));
            }, data);
        }

        @Override
        public void onEnd() {
            onTaskLoop(() -> {
                if (!live()) {
                    return;
                }
                forget();
                stats.streamsCompleted.incrementAndGet();
                send(new EndFrame(id));
            }, null);
        }

        @Override
        public void onFailure(FetchException failure) {
            onTaskLoop(() -> failed(failure), null);
        }

        /** On this channel's loop. */
        void failed(FetchException failure) {
            if (!live()) {
                return;
            }
            forget();
            stats.streamsFailed.incrementAndGet();
            send(new ErrorFrame(id, failure.code(), "relay " + nodeId + ", " + request.job() + " "
                    + request.mapAttempt() + " reduce " + request.partition() + " from " + request.source() + ": "
                    + failure.getMessage()));
        }

        /** The task read {@code n} more bytes: let the source send as many (on this channel's loop). */
        void credited(int n) {
            credited += n;
            stats.outstandingBytes.addAndGet(-n);
            if (upstream != null) {
                upstream.credit(n);
            }
        }

        /** The task gave the stream up (CANCEL, or its connection closed); already removed from the map. */
        void cancel() {
            stats.streamsCancelled.incrementAndGet();
            stats.outstandingBytes.addAndGet(-(received - credited));
            received = credited;
            if (upstream != null) {
                upstream.cancel();
            }
        }

        private void forget() {
            streams.remove(id);
            stats.outstandingBytes.addAndGet(-(received - credited));
            received = credited;
        }
    }

    @Override
    public String toString() {
        return "relay(" + task + " via " + nodeId + ")";
    }

}
