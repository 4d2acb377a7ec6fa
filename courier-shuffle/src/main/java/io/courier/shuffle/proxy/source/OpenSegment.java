package io.courier.shuffle.proxy.source;

import java.nio.channels.FileChannel;

/**
 * A resolved {@link Segment} with its map output's data file already open for reading
 * ({@link SegmentSource#openForReading}). Whoever receives it owns {@link #channel()} and closes it.
 */
public final class OpenSegment {
    private final Segment segment;
    private final FileChannel channel;

    OpenSegment(Segment segment, FileChannel channel) {
        this.segment = segment;
        this.channel = channel;
    }

    public Segment segment() {
        return segment;
    }

    /** The data file ({@code segment().file()}), open for reading. */
    public FileChannel channel() {
        return channel;
    }
}
