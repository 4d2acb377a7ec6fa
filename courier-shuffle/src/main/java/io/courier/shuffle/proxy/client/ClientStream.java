package io.courier.shuffle.proxy.client;

import io.netty.buffer.ByteBuf;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a {@link PeerConnection} needs of a fetch: identity, the connection's bookkeeping (confined to its
 * event loop) and the delivery callbacks. Two consumers exist: {@link SegmentStream} (a blocking
 * InputStream for a reducer thread) and {@link CallbackStream} (bytes handed over on the event loop).
 */
abstract class ClientStream {
    private final String peer;
    private final String job;
    private final String mapAttempt;
    private final int partition;
    // Event-loop-confined bookkeeping of the owning connection.
    int id;
    /** Null for a relayed upstream stream: the relaying proxy holds no secret, its task verifies the reply. */
    byte[] secret;
    byte[] requestMac;
    /** Credit to grant in the FETCH; 0 means the connection's window. */
    int initialCredit;
    /** Bytes of the connection and node budgets this stream holds while admitted. */
    long reservation;
    /** The reply MAC of the SEGMENT_HEADER, set before {@link #onHeader} (a relay forwards it). */
    byte[] replyMac;
    long expectedLength = -1;
    long granted;
    long wireReceived;
    boolean open;
    boolean released;
    final AtomicLong unacked = new AtomicLong();
    private volatile PeerConnection connection;

    ClientStream(String peer, String job, String mapAttempt, int partition) {
        this.peer = peer;
        this.job = job;
        this.mapAttempt = mapAttempt;
        this.partition = partition;
    }

    public String peer() {
        return peer;
    }

    public String job() {
        return job;
    }

    public String mapAttempt() {
        return mapAttempt;
    }

    public int partition() {
        return partition;
    }

    final void attach(PeerConnection c) {
        this.connection = c;
    }

    final PeerConnection connection() {
        return connection;
    }

    abstract boolean hasHeader();

    abstract void onHeader(SegmentHeader h);

    /** Takes ownership of {@code buf}. */
    abstract void onData(ByteBuf buf);

    abstract void onEnd();

    /** Whether this call failed the stream (the first failure wins; a completed stream cannot fail). */
    abstract boolean fail(FetchException e);

    @Override
    public String toString() {
        return "segment(" + job + ", " + mapAttempt + ", reduce=" + partition + ", from " + peer + ")";
    }
}
