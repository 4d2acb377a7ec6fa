package io.courier.shuffle.proxy.protocol;

/** One frame of the block protocol. Frames are immutable values except the payload-carrying data frames. */
public interface Frame {
    FrameType type();

    /** The stream the frame belongs to; 0 for connection-level frames. */
    int streamId();
}
