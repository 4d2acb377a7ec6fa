package io.courier.shuffle.proxy.client;


import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * One map output segment on its way to a reducer: its header, then exactly {@code compressedLength} IFile bytes
 * (with the CRC32 trailer). Reading slowly or not at all stops only this segment's credit window. One reader
 * thread at a time. Both transports' streams are one: a proxy's {@link SegmentStream} (Netty) and a reduce task's
 * {@code RelayStream} (blocking sockets).
 */
public interface IncomingSegment extends Closeable {
    /** Waits for the header; throws the fetch's failure, or a timeout as a failure of this segment. */
    SegmentHeader awaitHeader(long timeout, TimeUnit unit) throws IOException, InterruptedException;

    /** The segment's bytes; EOF after exactly {@code compressedLength} bytes. */
    InputStream data();

    /**
     * The segment's bytes, failing this segment (a retryable read error) when no byte arrives for
     * {@code readTimeout} while the reader waits.
     */
    InputStream data(long readTimeout, TimeUnit unit);

    /** Cancels the fetch if it is not complete. Idempotent. */
    @Override
    void close();
}
