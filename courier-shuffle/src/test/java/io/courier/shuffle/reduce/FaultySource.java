package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.auth.FetchAuthenticator;
import io.courier.shuffle.proxy.protocol.CancelFrame;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.EndFrame;
import io.courier.shuffle.proxy.protocol.FetchFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.FrameDecoder;
import io.courier.shuffle.proxy.protocol.FrameEncoder;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.protocol.Wire;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A source "proxy" on loopback that misbehaves in one chosen way on the first fetch of each map and serves it
 * correctly afterwards (unless the fault is {@link Fault#STALL_FOREVER}): Hadoop's TestFetcher faults, played
 * on Courier's wire. Owns one event loop thread, stopped by {@link #close()}.
 */
final class FaultySource implements AutoCloseable {
    /** What the first answer to a map's FETCH looks like. */
    enum Fault {
        /** No SEGMENT_HEADER at all (a source that accepted the connection, then hangs). */
        NO_HEADER,
        /** The header and half the bytes, then silence without closing: the read timeout must fire. */
        STALL,
        /** The header and half the bytes, then END: missing bytes. */
        MISSING_BYTES,
        /** The whole segment, 100 more bytes, then END: the payload disagrees with the header. */
        EXTRA_BYTES,
        /** A header (with a valid reply MAC) for another reduce partition: a bogus header. */
        BOGUS_HEADER,
        /** A frame of protocol version 2 instead of a header: an incompatible peer. */
        WRONG_VERSION,
        /** Like STALL, on every fetch. */
        STALL_FOREVER,
        /** The header and half the bytes, then the connection closes: a source node going down mid-segment. */
        DROP,
        /** No fault: every fetch is served correctly (a source that comes up late). */
        NONE
    }

    private final Fault fault;
    private final byte[] secret;
    private final Map<String, byte[]> segments = new ConcurrentHashMap<>();
    private final Map<String, Long> rawLengths = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> fetches = new ConcurrentHashMap<>();
    final AtomicInteger cancels = new AtomicInteger();
    private final EventLoopGroup loop = new NioEventLoopGroup(1);
    private final Channel server;

    FaultySource(Fault fault, byte[] secret) throws InterruptedException {
        this(fault, secret, 0);
    }

    /** A source listening on {@code port} (0: any free port). */
    FaultySource(Fault fault, byte[] secret, int port) throws InterruptedException {
        this.fault = fault;
        this.secret = secret.clone();
        server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FrameDecoder(), new FrameEncoder(), new Handler());
                    }
                }).bind("127.0.0.1", port).sync().channel();
    }

    /** Serves {@code segment} (IFile bytes of partition 0) of {@code mapAttempt}. */
    void serve(String mapAttempt, byte[] segment, long rawLength) {
        segments.put(mapAttempt, segment.clone());
        rawLengths.put(mapAttempt, rawLength);
    }

    int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    int fetchesOf(String mapAttempt) {
        AtomicInteger n = fetches.get(mapAttempt);
        return n == null ? 0 : n.get();
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly();
        loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** One connection; runs on the source's event loop. */
    private final class Handler extends SimpleChannelInboundHandler<Frame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
            if (frame instanceof HandshakeFrame) {
                ctx.writeAndFlush(new HandshakeFrame("127.0.0.1:" + port()));
            } else if (frame instanceof CancelFrame) {
                cancels.incrementAndGet();
            } else if (frame instanceof FetchFrame) {
                answer(ctx, (FetchFrame) frame);
            }
        }

        private void answer(ChannelHandlerContext ctx, FetchFrame f) {
            int n = fetches.computeIfAbsent(f.mapAttempt(), k -> new AtomicInteger()).incrementAndGet();
            byte[] seg = segments.get(f.mapAttempt());
            long raw = rawLengths.get(f.mapAttempt());
            int id = f.streamId();
            byte[] reply = new FetchAuthenticator().replyMac(secret, f.mac(), seg.length, raw);
            boolean faulty = fault != Fault.NONE && (n == 1 || fault == Fault.STALL_FOREVER);
            if (!faulty) {
                send(ctx, id, f.mapAttempt(), seg, seg.length, raw, reply);
                ctx.writeAndFlush(new EndFrame(id));
                return;
            }
            switch (fault) {
                case NO_HEADER:
                    return;
                case STALL:
                case STALL_FOREVER:
                    // Within the reducer's first credit window (this source ignores credit).
                    send(ctx, id, f.mapAttempt(), seg, Math.min(seg.length / 2, 32 * 1024), raw, reply);
                    return;
                case DROP:
                    send(ctx, id, f.mapAttempt(), seg, Math.min(seg.length / 2, 32 * 1024), raw, reply);
                    ctx.close();
                    return;
                case MISSING_BYTES:
                    send(ctx, id, f.mapAttempt(), seg, seg.length / 2, raw, reply);
                    ctx.writeAndFlush(new EndFrame(id));
                    return;
                case EXTRA_BYTES: {
                    byte[] more = Arrays.copyOf(seg, seg.length + 100);
                    ctx.write(new SegmentHeaderFrame(id, f.mapAttempt(), f.partition(), seg.length, raw, reply));
                    writeData(ctx, id, more, more.length);
                    ctx.writeAndFlush(new EndFrame(id));
                    return;
                }
                case BOGUS_HEADER:
                    ctx.writeAndFlush(new SegmentHeaderFrame(id, f.mapAttempt(), f.partition() + 1, seg.length, raw,
                            reply));
                    return;
                case WRONG_VERSION:
                    // A well-formed length and an END body, but version 2.
                    ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 6, 2, 6, 0, 0, 0, (byte) id}));
                    return;
                default:
                    throw new AssertionError(fault);
            }
        }

        private void send(ChannelHandlerContext ctx, int id, String map, byte[] seg, int bytes, long raw,
                byte[] reply) {
            ctx.write(new SegmentHeaderFrame(id, map, 0, seg.length, raw, reply));
            writeData(ctx, id, seg, bytes);
            ctx.flush();
        }

        private void writeData(ChannelHandlerContext ctx, int id, byte[] bytes, int count) {
            for (int off = 0; off < count; off += Wire.MAX_DATA) {
                int len = Math.min(Wire.MAX_DATA, count - off);
                ctx.write(new DataFrame(id, Unpooled.wrappedBuffer(bytes, off, len)));
            }
        }
    }
}
