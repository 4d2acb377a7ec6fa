package io.courier.shuffle.proxy.protocol;

import io.netty.channel.FileRegion;

/**
 * A DATA frame whose payload is a region of a file, sent with zero-copy {@code transferTo} by the encoder.
 * Only the sender builds these; the decoder always produces {@link DataFrame}s.
 */
public final class FileDataFrame implements Frame {
    private final int streamId;
    private final FileRegion region;

    public FileDataFrame(int streamId, FileRegion region) {
        this.streamId = Checks.streamId(streamId);
        if (region.count() > Wire.MAX_DATA) {
            throw new IllegalArgumentException("file data frame of stream " + streamId + " carries " + region.count()
                    + " bytes, more than " + Wire.MAX_DATA);
        }
        this.region = region;
    }

    @Override
    public FrameType type() {
        return FrameType.DATA;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    public FileRegion region() {
        return region;
    }

    @Override
    public String toString() {
        return "DATA(stream=" + streamId + ", file region of " + region.count() + " bytes)";
    }
}
