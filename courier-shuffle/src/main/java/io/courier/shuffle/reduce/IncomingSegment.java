package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.relay.RelayStream;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * One map output segment on its way to this reducer through the local proxy: its header, then exactly
 * {@code compressedLength} IFile bytes (with the CRC32 trailer). Reading slowly or not at all stops only this
 * segment's credit window. One reader thread at a time.
 */
public interface IncomingSegment extends Closeable {
    /** Waits for the header; throws the fetch's failure, or a timeout as a failure of this segment. */
    SegmentHeader awaitHeader(long timeout, TimeUnit unit) throws IOException, InterruptedException;

    /** The segment's bytes; EOF after exactly {@code compressedLength} bytes. */
    InputStream data();

    /** Cancels the fetch if it is not complete. Idempotent. */
    @Override
    void close();

    /** The relay client's stream as an {@code IncomingSegment}. */
    static IncomingSegment of(final RelayStream stream) {
        return new IncomingSegment() {
            @Override
            public SegmentHeader awaitHeader(long timeout, TimeUnit unit) throws IOException, InterruptedException {
                return stream.awaitHeader(timeout, unit);
            }

            @Override
            public InputStream data() {
                return stream.data();
            }

            @Override
            public void close() {
                stream.close();
            }

            @Override
            public String toString() {
                return stream.toString();
            }
        };
    }
}
