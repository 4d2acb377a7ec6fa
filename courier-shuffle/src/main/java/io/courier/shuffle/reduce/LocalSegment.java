package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.IncomingSegment;
import io.courier.shuffle.proxy.client.SegmentHeader;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.util.concurrent.TimeUnit;

/**
 * A segment of a node-local map output ({@link NodeLocalOutputs}): its header from the map's index, its bytes
 * from the data file, positioned at the partition's start and bounded to its length. The IFile checksum is
 * verified by Hadoop's map output as for every other segment. One reader thread.
 */
final class LocalSegment implements IncomingSegment {
    private final SegmentHeader header;
    private final RandomAccessFile file;
    private final File path;
    private final InputStream data;

    /** @param file positioned at the partition's first byte; owned (closed) by this segment */
    LocalSegment(String mapAttempt, int partition, long length, long rawLength, RandomAccessFile file, File path) {
        this.header = new SegmentHeader(mapAttempt, partition, length, rawLength);
        this.file = file;
        this.path = path;
        this.data = new Bounded(length);
    }

    @Override
    public SegmentHeader awaitHeader(long timeout, TimeUnit unit) {
        return header;
    }

    @Override
    public InputStream data() {
        return data;
    }

    /** A local file has no reader stall to time out: the same stream. */
    @Override
    public InputStream data(long readTimeout, TimeUnit unit) {
        return data;
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            // read-only file: nothing was lost
        }
    }

    @Override
    public String toString() {
        return "node-local " + header + " from " + path;
    }

    /** The partition's bytes and then EOF; a file cut short inside them is an error naming it. */
    private final class Bounded extends InputStream {
        private long left;

        Bounded(long length) {
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (left == 0) {
                return -1;
            }
            int n = file.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new IOException(path + " ended " + left + " bytes before the end of " + header);
            }
            left -= n;
            return n;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, left);
        }

        @Override
        public void close() {
            LocalSegment.this.close();
        }
    }
}
