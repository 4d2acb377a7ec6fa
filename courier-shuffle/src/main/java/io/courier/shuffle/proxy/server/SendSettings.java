package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.protocol.Wire;

/**
 * How a serving connection sends its blocks: how many data bytes it may queue in the channel at a time, whether
 * payloads go out as zero-copy file regions or as copies read into buffers, and how many blocks of one send pass
 * may share a DATA_RUN header (1: every block is its own DATA frame). Immutable.
 */
public final class SendSettings {
    private final long sendBufferBytes;
    private final boolean zeroCopy;
    private final int blocksPerRun;

    public SendSettings(long sendBufferBytes, boolean zeroCopy, int blocksPerRun) {
        if (sendBufferBytes < 1) {
            throw new IllegalArgumentException("send buffer must be at least one byte, got " + sendBufferBytes);
        }
        if (blocksPerRun < 1 || blocksPerRun > Wire.MAX_RUN_BLOCKS) {
            throw new IllegalArgumentException("blocks per DATA_RUN must be in [1, " + Wire.MAX_RUN_BLOCKS + "], got "
                    + blocksPerRun);
        }
        this.sendBufferBytes = sendBufferBytes;
        this.zeroCopy = zeroCopy;
        this.blocksPerRun = blocksPerRun;
    }

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
}
