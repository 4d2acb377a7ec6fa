package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.protocol.ConnectionsFrame;
import io.courier.shuffle.proxy.protocol.DataFrame;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.protocol.ErrorFrame;
import io.courier.shuffle.proxy.protocol.Frame;
import io.courier.shuffle.proxy.protocol.HandshakeFrame;
import io.courier.shuffle.proxy.protocol.ProtocolException;
import io.courier.shuffle.proxy.protocol.SegmentHeaderFrame;
import io.courier.shuffle.proxy.server.ProtocolErrors;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/** Dispatches the frames a serving peer sends to the {@link PeerConnection} of the channel. */
final class ClientConnectionHandler extends ChannelInboundHandlerAdapter {
    private final PeerConnection connection;

    ClientConnectionHandler(PeerConnection connection) {
        this.connection = connection;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connection.active(ctx.channel());
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof Frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        Frame f = (Frame) msg;
        switch (f.type()) {
            case HANDSHAKE:
                connection.onHandshake((HandshakeFrame) f);
                break;
            case SEGMENT_HEADER:
                connection.onHeader((SegmentHeaderFrame) f);
                break;
            case DATA:
                connection.onData((DataFrame) f);
                break;
            case END:
                connection.onEnd(f.streamId());
                break;
            case ERROR:
                connection.onError((ErrorFrame) f);
                break;
            case CONNECTIONS:
                connection.onConnections((ConnectionsFrame) f);
                break;
            default:
                ReferenceCountUtil.release(msg);
                throw new ProtocolException(ErrorCode.UNEXPECTED_FRAME, f.type()
                        + " is not allowed from a serving peer (" + connection.peer() + ")");
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        connection.lost("connection closed");
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ProtocolException pe = ProtocolErrors.find(cause);
        if (pe != null && ctx.channel().isActive()) {
            ctx.writeAndFlush(pe.toErrorFrame(0)).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }
}
