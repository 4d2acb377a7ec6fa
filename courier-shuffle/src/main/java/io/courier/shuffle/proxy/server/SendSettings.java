package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.protocol.Wire;

/**
 * How a serving connection sends its blocks: how many data bytes it may queue in the channel at a time, whether
 * payloads go out as zero-copy file regions or as copies read into buffers, and how many blocks of one send pass
 * may share a DATA_RUN header (1: every block is its own DATA frame), and how many streams it may have open. Immutable.
 */
public final class SendSettings {
    private final long sendBufferBytes;
    private final boolean zeroCopy;
    private final int blocksPerRun;
    private final int maxOpenStreams;

    /** With {@link #DEFAULT_MAX_OPEN_STREAMS}. */
    public SendSettings(long sendBufferBytes, boolean zeroCopy, int blocksPerRun) {
        this(sendBufferBytes, zeroCopy, blocksPerRun, DEFAULT_MAX_OPEN_STREAMS);
    }

    /** @param maxOpenStreams streams (each with its map output file open) one connection may have at once */
    public SendSettings(long sendBufferBytes, boolean zeroCopy, int blocksPerRun, int maxOpenStreams) {
        if (sendBufferBytes < 1) {
            throw new IllegalArgumentException("send buffer must be at least one byte, got " + sendBufferBytes);
        }
        if (blocksPerRun < 1 || blocksPerRun > Wire.MAX_RUN_BLOCKS) {
            throw new IllegalArgumentException("blocks per DATA_RUN must be in [1, " + Wire.MAX_RUN_BLOCKS + "], got "
                    + blocksPerRun);
        }
        this.sendBufferBytes = sendBufferBytes;
        this.zeroCopy = zeroCopy;
        if (maxOpenStreams < 1) {
            throw new IllegalArgumentException("open streams per connection must be at least 1, got " + maxOpenStreams);
        }
        this.blocksPerRun = blocksPerRun;
        this.maxOpenStreams = maxOpenStreams;
    }

    /** Streams one serving connection may have open at once (the proxy's default). */
    public static final int DEFAULT_MAX_OPEN_STREAMS = 1024;

    /** The given budget and payload mode, with full-size runs (the proxy's default). */
    public static SendSettings of(long sendBufferBytes, boolean zeroCopy) {
        return new SendSettings(sendBufferBytes, zeroCopy, Wire.MAX_RUN_BLOCKS);
    }

    public long sendBufferBytes() {
        return sendBufferBytes;
    }

    public boolean zeroCopy() {
        return zeroCopy;
    }

    public int blocksPerRun() {
        return blocksPerRun;
    }

    /** Streams one connection may have open at once; a FETCH beyond is refused with TOO_MANY_STREAMS. */
    public int maxOpenStreams() {
        return maxOpenStreams;
    }
}
