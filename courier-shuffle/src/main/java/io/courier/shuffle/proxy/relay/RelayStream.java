package io.courier.shuffle.proxy.relay;

import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.IncomingSegment;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.protocol.DirectBlockPool;
import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One segment a reduce task fetches through its node's proxy, as the reducer consumes it: wait for the
 * {@link SegmentHeader}, then read exactly {@code compressedLength} bytes from {@link #data()} (IFile bytes with
 * the CRC32 trailer, ready for Hadoop's {@code IFileInputStream}). Bytes are granted back to the source as they
 * are read, so a reducer that stops reading stops only this stream once its window is full. A failure surfaces
 * as a {@link FetchException} from {@code awaitHeader} or {@code read}; so does a source that sends nothing for
 * the read timeout while the reducer waits. {@link #close()} before the end cancels the fetch.
 *
 * <p>The bytes wait in the connection's pooled direct buffers, each a block as it came off the socket, and a read
 * copies them once into the reader's array (Hadoop's map output buffer); a drained or dropped block goes back to
 * the pool.
 *
 * <p>Threads: one consumer thread calls {@code awaitHeader}, reads and closes; the connection's reader thread
 * delivers header, data, end and failures. Both synchronize on this stream.
 */
public final class RelayStream implements IncomingSegment {
    private final TaskSocketConnection connection;
    /** Where drained blocks go back; null for a stream that failed before it had a connection. */
    private final DirectBlockPool blocks;
    private final RelayTally tally;
    private final String source;
    private final String job;
    private final String mapAttempt;
    private final int partition;
    private final int window;
    private final InputStream in;
    /** The fetch's MAC key and request MAC, to verify the source's reply MAC (reader thread). */
    final byte[] secret;
    final byte[] requestMac;
    /** The stream id on the task connection; assigned once when the connection admits the fetch. */
    int id;

    /** Received blocks not yet read, each from position to limit; the head one may be partly read. */
    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private SegmentHeader header;
    private FetchException failure;
    private boolean ended;
    private boolean closed;
    private long received;
    private long read;
    private long granted;
    private int unacked;
    private String servedBy;

    RelayStream(TaskSocketConnection connection, DirectBlockPool blocks, RelayTally tally, String source, String job,
            String mapAttempt, int partition, byte[] secret, byte[] requestMac, int window, long readTimeoutMillis) {
        this.connection = connection;
        this.blocks = blocks;
        this.tally = tally;
        this.source = source;
        this.job = job;
        this.mapAttempt = mapAttempt;
        this.partition = partition;
        this.secret = secret;
        this.requestMac = requestMac;
        this.window = window;
        this.granted = window;
        this.in = new Data(readTimeoutMillis);
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

    /** The segment's bytes; EOF after exactly {@code compressedLength} bytes. */
    @Override
    public InputStream data() {
        return in;
    }

    @Override
    public InputStream data(long readTimeout, TimeUnit unit) {
        return new Data(unit.toMillis(readTimeout));
    }

    /** The proxy-to-proxy connection that served this stream (from the relay's ROUTE frame), if known yet. */
    public synchronized String servedBy() {
        return servedBy;
    }

    /** Bytes received from the local proxy so far (read or buffered). */
    public synchronized long received() {
        return received;
    }

    /** Cancels the fetch if it is not complete and drops what it buffers. Idempotent. */
    @Override
    public void close() {
        boolean cancel;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cancel = !ended && failure == null;
            dropChunks();
            notifyAll();
        }
        if (connection != null) {
            connection.streamDone(this, cancel);
        }
    }

    @Override
    public String toString() {
        return "relayed fetch of " + job + "/" + mapAttempt + "/" + partition + " from " + source + " (stream " + id
                + ")";
    }

    String source() {
        return source;
    }

    String job() {
        return job;
    }

    String mapAttempt() {
        return mapAttempt;
    }

    int partition() {
        return partition;
    }

    // ---- the connection's reader thread ----

    synchronized void onRoute(String connectionId) {
        servedBy = connectionId;
    }

    synchronized void onHeader(SegmentHeader h) {
        header = h;
        notifyAll();
    }

    /**
     * Takes a DATA payload (a block of the connection's pool, its remaining bytes; this stream owns it from now on,
     * accepted or not); returns why it breaks the protocol, or {@code null} if it was accepted.
     */
    synchronized String onData(ByteBuffer payload) {
        String violation = accept(payload);
        if (violation != null || closed || failure != null) {
            release(payload);
        } else {
            chunks.add(payload);
            notifyAll();
        }
        return violation;
    }

    /** Holds the monitor. */
    private String accept(ByteBuffer payload) {
        if (header == null) {
            return "DATA before SEGMENT_HEADER on " + this;
        }
        int length = payload.remaining();
        received += length;
        if (received > granted) {
            return "local proxy sent " + received + " bytes on " + this + " but only " + granted + " were granted";
        }
        if (received > header.compressedLength()) {
            return "local proxy sent " + received + " bytes on " + this + " whose header announced "
                    + header.compressedLength();
        }
        // Counted before the reader can see the bytes, so that counters are never behind what was read.
        tally.received(length);
        return null;
    }

    /** Holds the monitor: every buffered block back to the pool. */
    private void dropChunks() {
        ByteBuffer b;
        while ((b = chunks.poll()) != null) {
            release(b);
        }
    }

    private void release(ByteBuffer block) {
        if (blocks != null) {
            blocks.give(block);
        }
    }

    /** The source sent END: the stream is complete if exactly the announced bytes arrived, else it fails. */
    synchronized void onEnd() {
        ended = true;
        if (header == null || received != header.compressedLength()) {
            fail(new FetchException(ErrorCode.WRONG_LENGTH, this + ": header announced "
                    + (header == null ? "nothing" : header.compressedLength() + " bytes") + ", stream ended after "
                    + received));
            return;
        }
        tally.completed();
        notifyAll();
    }

    /** Fails the stream unless it already failed or is complete; returns whether it did. Any thread. */
    synchronized boolean fail(FetchException e) {
        if (failure != null || (ended && header != null && received == header.compressedLength())) {
            return false;
        }
        failure = e;
        tally.failed();
        dropChunks();
        notifyAll();
        return true;
    }

    /** The segment's bytes for one reader; {@code timeoutMillis}: how long a read may wait for the next byte. */
    private final class Data extends InputStream {
        private final long timeoutMillis;

        Data(long timeoutMillis) {
            this.timeoutMillis = timeoutMillis;
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
            int n = 0;
            int credit = 0;
            boolean eof = false;
            boolean timedOut = false;
            FetchException thrown = null;
            synchronized (RelayStream.this) {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
                while (chunks.isEmpty() && failure == null && !ended && !closed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        timedOut = true;
                        break;
                    }
                    try {
                        TimeUnit.NANOSECONDS.timedWait(RelayStream.this, left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted while reading " + RelayStream.this);
                    }
                }
                // A source that stalls without closing must not hang the reducer: the stall fails this fetch only.
                timedOut = timedOut && fail(new FetchException(ErrorCode.PEER_LOST, "no data for " + RelayStream.this
                        + " within " + timeoutMillis + " ms (" + read + " of "
                        + (header == null ? "?" : String.valueOf(header.compressedLength())) + " bytes read)"));
                if (failure != null) {
                    thrown = failure;
                } else if (closed) {
                    throw new IOException(RelayStream.this + " is closed");
                } else if (chunks.isEmpty()) {
                    eof = true;
                } else {
                    // Take what is buffered, across chunks, up to len: fewer calls and credit grants per byte.
                    ByteBuffer head;
                    while (n < len && (head = chunks.peek()) != null) {
                        int k = Math.min(len - n, head.remaining());
                        head.get(b, off + n, k);
                        n += k;
                        if (!head.hasRemaining()) {
                            release(chunks.poll());
                        }
                    }
                    read += n;
                    unacked += n;
                    // Credit in batches of half a window, and none beyond what the segment still needs.
                    if (unacked >= window / 2 && granted < header.compressedLength()) {
                        credit = unacked;
                        granted += credit;
                        unacked = 0;
                    }
                }
            }
            if (thrown != null) {
                if (timedOut && connection != null) {
                    connection.streamDone(RelayStream.this, true);
                }
                throw thrown;
            }
            if (eof) {
                close();
                return -1;
            }
            if (credit > 0) {
                connection.credit(RelayStream.this, credit);
            }
            return n;
        }

        @Override
        public int available() {
            synchronized (RelayStream.this) {
                int a = 0;
                for (ByteBuffer c : chunks) {
                    a += c.remaining();
                }
                return a;
            }
        }

        @Override
        public void close() {
            RelayStream.this.close();
        }
    }
}
