package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One segment fetched through the local proxy, as a reducer consumes it: wait for the {@link SegmentHeader},
 * then read exactly {@code compressedLength} bytes from {@link #data()} (IFile bytes with the CRC32 trailer,
 * ready for Hadoop's {@code IFileInputStream}). Bytes are granted to the sender as they are read, so a
 * reducer that stops reading stops only this stream once its window is full. A failure surfaces as a
 * {@link FetchException} from {@code awaitHeader} or {@code read}. {@link #close()} before the end cancels
 * the fetch. A reader that waits longer than its read timeout for the next byte (a source that stalls
 * mid-segment without closing its connection) gets a retryable {@code PEER_LOST} failure and the stream is
 * cancelled, like Hadoop's Fetcher after {@code mapreduce.reduce.shuffle.read.timeout}. One reader thread at a
 * time; the proxy's event loop feeds it.
 */
public final class SegmentStream extends ClientStream implements IncomingSegment {
    /** Read timeout of {@link #data()} unless the client sets another: Hadoop's shuffle read timeout default. */
    public static final long DEFAULT_READ_TIMEOUT_MILLIS = 180_000;
    private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>();
    private final long readTimeoutMillis;
    private final InputStream in;
    private SegmentHeader header;
    private FetchException failure;
    private boolean ended;
    private boolean closed;
    private long received;
    private long read;
    /** Whether the reader waits in {@code read} for a chunk: only then does a new chunk need a wake-up. */
    private boolean readerWaiting;

    SegmentStream(String peer, String job, String mapAttempt, int partition) {
        this(peer, job, mapAttempt, partition, DEFAULT_READ_TIMEOUT_MILLIS);
    }

    SegmentStream(String peer, String job, String mapAttempt, int partition, long readTimeoutMillis) {
        super(peer, job, mapAttempt, partition);
        if (readTimeoutMillis <= 0) {
            throw new IllegalArgumentException("read timeout must be > 0 ms, got " + readTimeoutMillis);
        }
        this.readTimeoutMillis = readTimeoutMillis;
        this.in = new Data(TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis));
    }

    /** Waits for the verified segment header; throws the fetch's failure, or a timeout as a retryable failure. */
    @Override
    public synchronized SegmentHeader awaitHeader(long timeout, TimeUnit unit) throws IOException,
            InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (header == null && failure == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new FetchException(ErrorCode.PEER_LOST, "no segment header for " + this + " within "
                        + unit.toMillis(timeout) + " ms");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (failure != null) {
            throw failure;
        }
        return header;
    }

    /**
     * The segment's bytes; EOF after exactly {@code compressedLength} bytes. A read that sees no new byte for the
     * client's read timeout fails the stream (see the class comment).
     */
    @Override
    public InputStream data() {
        return in;
    }

    /**
     * The same bytes as {@link #data()}, with {@code timeout} as the longest wait for the next byte (the caller's
     * own setting, e.g. the reducer's {@code courier.reduce.read-timeout.ms}).
     */
    public InputStream data(long timeout, TimeUnit unit) {
        if (timeout <= 0) {
            throw new IllegalArgumentException("read timeout must be > 0, got " + timeout + " " + unit);
        }
        return new Data(unit.toNanos(timeout));
    }

    /** The longest wait of {@link #data()} for the next byte. */
    public long readTimeoutMillis() {
        return readTimeoutMillis;
    }

    /** Bytes received from the network so far (read or buffered). */
    public synchronized long received() {
        return received;
    }

    /** Cancels the fetch if it is not complete and releases what it buffers. Idempotent. */
    @Override
    public void close() {
        boolean cancel;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cancel = !ended && failure == null;
            releaseChunks();
            notifyAll();
        }
        PeerConnection c = connection();
        if (c != null) {
            c.streamDone(this, cancel);
        }
    }

    // ---- called on the connection's event loop ----

    @Override
    synchronized void onHeader(SegmentHeader h) {
        header = h;
        notifyAll();
    }

    @Override
    synchronized boolean hasHeader() {
        return header != null;
    }

    @Override
    synchronized void onData(ByteBuf buf) {
        received += buf.readableBytes();
        if (closed || failure != null) {
            buf.release();
            return;
        }
        chunks.add(buf);
        if (readerWaiting) {
            notifyAll();
        }
    }

    @Override
    synchronized void onEnd() {
        ended = true;
        if (header != null && received != header.compressedLength()) {
            fail(new FetchException(ErrorCode.WRONG_LENGTH, this + ": header announced " + header.compressedLength()
                    + " bytes, stream ended after " + received));
            return;
        }
        notifyAll();
    }

    @Override
    synchronized boolean fail(FetchException e) {
        if (failure != null || (ended && received == expected())) {
            return false;
        }
        failure = e;
        releaseChunks();
        notifyAll();
        return true;
    }

    private long expected() {
        return header == null ? -1 : header.compressedLength();
    }

    private void releaseChunks() {
        ByteBuf b;
        while ((b = chunks.poll()) != null) {
            b.release();
        }
    }

    /** The reader's view; several views of one stream share its chunks (one reader thread at a time). */
    private final class Data extends InputStream {
        private final long timeoutNanos;

        Data(long timeoutNanos) {
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int n;
            boolean eof = false;
            PeerConnection c;
            FetchException stalled = null;
            synchronized (SegmentStream.this) {
                long deadline = System.nanoTime() + timeoutNanos;
                while (chunks.isEmpty() && failure == null && !ended && !closed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        stalled = new FetchException(ErrorCode.PEER_LOST, "no data for "
                                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (read timeout) on "
                                + SegmentStream.this + " after " + received + " of " + expected() + " bytes");
                        fail(stalled);
                        break;
                    }
                    readerWaiting = true;
                    try {
                        TimeUnit.NANOSECONDS.timedWait(SegmentStream.this, left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("interrupted while reading " + SegmentStream.this);
                    } finally {
                        readerWaiting = false;
                    }
                }
                if (failure != null && failure != stalled) {
                    throw failure;
                }
                if (closed) {
                    throw new IOException(SegmentStream.this + " is closed");
                }
                if (chunks.isEmpty()) {
                    eof = true;
                    n = -1;
                } else {
                    // Take what is buffered, across chunks, up to len: fewer calls and credit hand-offs per byte.
                    n = 0;
                    ByteBuf head;
                    while (n < len && (head = chunks.peek()) != null) {
                        int k = Math.min(len - n, head.readableBytes());
                        head.readBytes(b, off + n, k);
                        n += k;
                        if (!head.isReadable()) {
                            chunks.poll().release();
                        }
                    }
                    read += n;
                }
                c = connection();
            }
            if (stalled != null) {
                // Outside the lock: stop the source and return the stream's window (CANCEL upstream).
                if (c != null) {
                    c.streamDone(SegmentStream.this, true);
                }
                throw stalled;
            }
            if (eof) {
                close();
                return -1;
            }
            if (c != null) {
                c.consumed(SegmentStream.this, n);
            }
            return n;
        }

        @Override
        public int available() {
            synchronized (SegmentStream.this) {
                int a = 0;
                for (ByteBuf bb : chunks) {
                    a += bb.readableBytes();
                }
                return a;
            }
        }

        @Override
        public void close() {
            SegmentStream.this.close();
        }
    }
}
