package io.courier.shuffle.proxy.protocol;

/**
 * A DATA frame as a blocking reader receives it: the payload in its own array. The proxies use
 * {@link DataFrame}, whose payload is a slice of the socket's buffers; this one serves the Netty-free task
 * client. Owns its array: the reader hands it over and keeps no reference.
 */
public final class ArrayDataFrame implements Frame {
    private final int streamId;
    private final byte[] payload;

    public ArrayDataFrame(int streamId, byte[] payload) {
        this.streamId = Checks.streamId(streamId);
        if (payload.length > Wire.MAX_DATA) {
            throw new IllegalArgumentException("data frame of stream " + streamId + " carries " + payload.length
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

    /** The payload (not copied: the frame is handed from the reader to one consumer). */
    public byte[] payload() {
        return payload;
    }

    @Override
    public String toString() {
        return "DATA(stream=" + streamId + ", " + payload.length + " bytes)";
    }
}
