package io.courier.shuffle.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * Up to 64 KiB of a stream's bytes held in a buffer (decoded frames, chunked sends). Reference-counted:
 * whoever receives it releases it.
 */
public final class DataFrame extends DefaultByteBufHolder implements Frame {
    private final int streamId;

    public DataFrame(int streamId, ByteBuf content) {
        super(content);
        this.streamId = Checks.streamId(streamId);
        if (content.readableBytes() > Wire.MAX_DATA) {
            throw new IllegalArgumentException("data frame of stream " + streamId + " carries "
                    + content.readableBytes() + " bytes, more than " + Wire.MAX_DATA);
        }
    }

    @Override
    public FrameType type() {
        return FrameType.DATA;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    @Override
    public String toString() {
        return "DATA(stream=" + streamId + ", " + content().readableBytes() + " bytes)";
    }
}
