package io.courier.shuffle.proxy.client;

import io.netty.buffer.ByteBuf;

/**
 * A stream this proxy fetches on behalf of a local task (the relay). It starts with the task's initial credit
 * (not this proxy's window: the task returns credit in batches of half its own window) and grants the source
 * more only when told to ({@link #credit}, as the task grants it), so a task that stops reading stops the
 * stream at the source and the relay holds at most the task's window. Callbacks arrive on the
 * upstream connection's event loop; {@link #credit} and {@link #cancel} may be called from any thread.
 */
public final class RelayedFetch extends ClientStream {
    private final RelaySink sink;
    // Confined to the upstream connection's event loop.
    private boolean headerSeen;
    private boolean done;

    RelayedFetch(String source, String job, String mapAttempt, int partition, int initialCredit, RelaySink sink) {
        super(source, job, mapAttempt, partition);
        this.sink = sink;
        this.initialCredit = Math.max(1, initialCredit);
    }

    /** Grants the source {@code n} more bytes on this stream (the task read them). */
    public void credit(int n) {
        PeerConnection c = connection();
        if (c != null) {
            c.credit(this, n);
        }
    }

    /** Stops the stream (CANCEL upstream) and returns its window; the sink hears nothing more. */
    public void cancel() {
        PeerConnection c = connection();
        if (c != null) {
            c.loop().execute(() -> {
                if (!done) {
                    done = true;
                    c.streamDone(this, true);
                }
            });
        }
    }

    @Override
    boolean hasHeader() {
        return headerSeen;
    }

    @Override
    void onHeader(SegmentHeader h) {
        headerSeen = true;
        if (!done) {
            sink.onHeader(h, replyMac, connection().connectionId());
        }
    }

    @Override
    void onData(ByteBuf buf) {
        if (done) {
            buf.release();
            return;
        }
        sink.onData(buf);
    }

    @Override
    void onEnd() {
        if (done) {
            return;
        }
        done = true;
        sink.onEnd();
        connection().streamDone(this, false);
    }

    @Override
    boolean fail(FetchException e) {
        if (done) {
            return false;
        }
        done = true;
        sink.onFailure(e);
        return true;
    }
}
