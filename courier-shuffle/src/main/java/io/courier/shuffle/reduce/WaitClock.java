package io.courier.shuffle.reduce;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Adds up the time segments spend waiting — for merge memory, for their header, for bytes that have not
 * arrived yet — for the WAIT_MILLIS counter. Thread-safe.
 */
final class WaitClock {
    private final AtomicLong nanos = new AtomicLong();

    void add(long waitedNanos) {
        if (waitedNanos > 0) {
            nanos.addAndGet(waitedNanos);
        }
    }

    long millis() {
        return nanos.get() / 1_000_000L;
    }

    /** {@code in}, timing the reads that found no byte ready (the reader waits for the network). */
    InputStream timed(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                if (super.available() > 0) {
                    return super.read();
                }
                long t = System.nanoTime();
                try {
                    return super.read();
                } finally {
                    add(System.nanoTime() - t);
                }
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (super.available() > 0) {
                    return super.read(b, off, len);
                }
                long t = System.nanoTime();
                try {
                    return super.read(b, off, len);
                } finally {
                    add(System.nanoTime() - t);
                }
            }
        };
    }
}
