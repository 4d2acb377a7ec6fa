package io.courier.shuffle.proxy.protocol;

import java.nio.ByteBuffer;

/**
 * A DATA frame as the task's {@link ChannelFrameReader} receives it: the payload in a direct buffer of a
 * {@link DirectBlockPool} (position 0, limit the payload's length). The proxies use {@link DataFrame}, whose
 * payload is a slice of Netty's buffers. Ownership of the buffer passes with the frame: whoever takes the frame
 * gives the buffer back to its pool when done with it.
 */
public final class PooledDataFrame implements Frame {
    private final int streamId;
    private final ByteBuffer payload;

    public PooledDataFrame(int streamId, ByteBuffer payload) {
        this.streamId = Checks.streamId(streamId);
        if (payload.remaining() > Wire.MAX_DATA) {
            throw new IllegalArgumentException("data frame of stream " + streamId + " carries " + payload.remaining()
                    + " bytes, more than " + Wire.MAX_DATA);
        }
        this.payload = payload;
    }

    @Override
    public FrameType type() {
        return FrameType.DATA;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    /** The payload (not copied): its remaining bytes. */
    public ByteBuffer payload() {
        return payload;
    }

    @Override
    public String toString() {
        return "DATA(stream=" + streamId + ", " + payload.remaining() + " bytes)";
    }
}
