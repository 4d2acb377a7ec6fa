package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.auth.MapAttemptIds;
import io.courier.shuffle.proxy.auth.SecretLookup;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.CreditFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.schedule.SendScheduler;
import io.courier.shuffle.proxy.source.OpenSegment;
import io.courier.shuffle.proxy.source.Segment;
import io.courier.shuffle.proxy.source.SegmentException;
import io.courier.shuffle.proxy.source.SegmentSource;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.unix.DomainSocketChannel;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.TimeUnit;

/**
 * The serving side of one connection (docs/protocol.md, state machine): expects HANDSHAKE first, then
 * FETCH, CREDIT and CANCEL frames. A FETCH is answered with SEGMENT_HEADER then DATA/END, or with one
 * ERROR frame and no data when it does not authenticate or cannot be served. Protocol violations answer
 * ERROR on stream 0 and close this connection only, and so does a connection that sends no HANDSHAKE within
 * {@link #HANDSHAKE_TIMEOUT_MILLIS} (an established connection is never closed for idleness: the node-pair
 * connection is meant to persist).
 */
public final class ServerConnectionHandler extends SimpleChannelInboundHandler<Frame> {
    /** How long a new connection may stay silent before its HANDSHAKE (a port scanner, a stuck client). */
    public static final long HANDSHAKE_TIMEOUT_MILLIS = 30_000;
    private final long handshakeTimeoutMillis;
    private boolean handedOver;
    private final String nodeId;
    private final SecretLookup secrets;
    private final SegmentSource source;
    private final SendScheduler scheduler;
    private final ServerCounters counters;
    private final SendSettings send;
    private final TaskConnectionAcceptor tasks;
    /** This connection's MACs (its event loop keeps one Mac). */
    private final FetchAuthenticator auth = new FetchAuthenticator();
    private ConnectionSender sender;
    private String peer;

    public ServerConnectionHandler(String nodeId, SecretLookup secrets, SegmentSource source, SendScheduler scheduler,
            ServerCounters counters, SendSettings send) {
        this(nodeId, secrets, source, scheduler, counters, send, null);
    }

    /** @param tasks takes over connections whose handshake has the TASK role; null refuses them */
    public ServerConnectionHandler(String nodeId, SecretLookup secrets, SegmentSource source, SendScheduler scheduler,
            ServerCounters counters, SendSettings send, TaskConnectionAcceptor tasks) {
        this(nodeId, secrets, source, scheduler, counters, send, tasks, HANDSHAKE_TIMEOUT_MILLIS);
    }

    /** @param handshakeTimeoutMillis how long the connection may wait for its HANDSHAKE (tests shorten it) */
    public ServerConnectionHandler(String nodeId, SecretLookup secrets, SegmentSource source, SendScheduler scheduler,
            ServerCounters counters, SendSettings send, TaskConnectionAcceptor tasks, long handshakeTimeoutMillis) {
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
        this.tasks = tasks;
        this.nodeId = nodeId;
        this.secrets = secrets;
        this.source = source;
        this.scheduler = scheduler;
        this.counters = counters;
        this.send = send;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        sender = new ConnectionSender(ctx.channel(), scheduler, counters, send);
        counters.connectionActive();
        ctx.executor().schedule(() -> {
            if (peer == null && !handedOver && ctx.channel().isActive()) {
                exceptionCaught(ctx, new ProtocolException(ErrorCode.UNEXPECTED_FRAME, "no HANDSHAKE within "
                        + handshakeTimeoutMillis + " ms on " + nodeId + " from " + ctx.channel().remoteAddress()));
            }
        }, handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) throws Exception {
        if (peer == null) {
            if (!(frame instanceof HandshakeFrame)) {
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, "expected HANDSHAKE first, got " + frame);
            }
            HandshakeFrame hello = (HandshakeFrame) frame;
            if (hello.role() == HandshakeFrame.Role.TASK) {
                handOverToRelay(ctx, hello);
                return;
            }
            if (ctx.channel() instanceof DomainSocketChannel) {
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, "only local tasks connect to " + nodeId
                        + " over its relay's domain socket; peer proxy " + hello.nodeId() + " must use its TCP port");
            }
            peer = hello.nodeId();
            counters.connectionFrom(peer);
            ctx.writeAndFlush(new HandshakeFrame(nodeId));
            sender.start(peer);
            return;
        }
        switch (frame.type()) {
            case FETCH:
                fetch(ctx, (FetchFrame) frame);
                break;
            case CREDIT:
                sender.credit(frame.streamId(), ((CreditFrame) frame).bytes());
                break;
            case CANCEL:
                sender.cancel(((CancelFrame) frame).streamId());
                break;
            default:
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, frame.type()
                        + " is not allowed from a fetching peer (" + peer + ")");
        }
    }

    /**
     * A local task's connection: the relay's handler replaces this one (its sender was never started, so
     * nothing of the serving path stays attached to the channel).
     */
    private void handOverToRelay(ChannelHandlerContext ctx, HandshakeFrame hello) throws ProtocolException {
        if (tasks == null) {
            throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, "proxy " + nodeId + " does not relay for tasks");
        }
        ChannelHandler relay;
        try {
            relay = tasks.accept(ctx.channel(), hello);
        } catch (ProtocolException refused) {
            // The relay refused this task (not local, or at its connection cap) and counted it: an answer, not a
            // protocol error of this connection.
            ctx.writeAndFlush(refused.toErrorFrame(0)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        handedOver = true;
        ctx.writeAndFlush(new HandshakeFrame(nodeId));
        ctx.pipeline().replace(this, "relay", relay);
    }

    private void fetch(ChannelHandlerContext ctx, FetchFrame f) throws ProtocolException {
        if (sender.has(f.streamId())) {
            throw new ProtocolException(ErrorCode.DUPLICATE_STREAM, "stream " + f.streamId() + " is already open");
        }
        if (f.initialCredit() == 0) {
            // Such a stream could never send a byte yet would hold its map output file open until the peer left.
            refuse(ctx, f, ErrorCode.MALFORMED_FRAME, "FETCH of " + f.mapAttempt() + " reduce " + f.partition()
                    + " grants no initial credit");
            return;
        }
        byte[] secret = secrets.secretFor(f.job());
        if (secret == null) {
            refuse(ctx, f, ErrorCode.UNKNOWN_JOB, "no shuffle secret for " + f.job() + " on " + nodeId);
            return;
        }
        if (!auth.verifyRequest(secret, f.job(), f.mapAttempt(), f.partition(), f.mac())) {
            refuse(ctx, f, ErrorCode.AUTHENTICATION_FAILED, "fetch MAC of " + f.mapAttempt() + " reduce "
                    + f.partition() + " does not verify with the secret of " + f.job());
            return;
        }
        if (!MapAttemptIds.belongsTo(f.job(), f.mapAttempt())) {
            refuse(ctx, f, ErrorCode.MAP_OF_OTHER_JOB, f.mapAttempt() + " is not a map attempt of " + f.job());
            return;
        }
        if (sender.openStreams() >= send.maxOpenStreams()) {
            refuse(ctx, f, ErrorCode.TOO_MANY_STREAMS, "connection from " + peer + " to " + nodeId + " has "
                    + sender.openStreams() + " streams open, the most one connection may hold"
                    + " (courier.proxy.connection.max-open-streams); FETCH of " + f.mapAttempt() + " refused");
            return;
        }
        Segment seg;
        FileChannel file;
        try {
            OpenSegment opened = source.openForReading(f.job(), f.mapAttempt(), f.partition());
            seg = opened.segment();
            file = opened.channel();
        } catch (SegmentException e) {
            refuse(ctx, f, e.code(), e.getMessage());
            return;
        }
        byte[] reply = auth.replyMac(secret, f.mac(), seg.length(), seg.rawLength());
        ctx.write(new SegmentHeaderFrame(f.streamId(), f.mapAttempt(), f.partition(), seg.length(),
                seg.rawLength(), reply));
        OutboundStream s = new OutboundStream(f.streamId(), f.job(), f.mapAttempt(), seg, file, f.initialCredit());
        if (seg.length() == 0) {
            ctx.write(new EndFrame(f.streamId()));
            counters.streamsServed.incrementAndGet();
            try {
                file.close();
            } catch (IOException ignored) {
                // empty segment: nothing was read
            }
            ctx.flush();
            return;
        }
        sender.add(s);
        ctx.flush();
    }

    private void refuse(ChannelHandlerContext ctx, FetchFrame f, ErrorCode code, String message) {
        counters.refused(code);
        ctx.writeAndFlush(new ErrorFrame(f.streamId(), code, message));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable() && sender != null) {
            sender.writable();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (sender != null) {
            sender.close();
            counters.connectionInactive();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ProtocolException pe = ProtocolErrors.find(cause);
        counters.protocolErrors.incrementAndGet();
        ErrorFrame err = pe != null ? pe.toErrorFrame(0)
                : new ErrorFrame(0, ErrorCode.IO_ERROR, String.valueOf(cause));
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(err).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }
}
