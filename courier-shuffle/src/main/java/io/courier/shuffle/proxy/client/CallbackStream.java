package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.netty.buffer.ByteBuf;

/** A fetch whose bytes go straight to a {@link SegmentConsumer} on the event loop; also its {@link FetchHandle}. */
final class CallbackStream extends ClientStream implements FetchHandle {
    private final SegmentConsumer consumer;
    private SegmentHeader header;
    private long received;
    private boolean done;

    CallbackStream(String peer, String job, String mapAttempt, int partition, SegmentConsumer consumer) {
        super(peer, job, mapAttempt, partition);
        this.consumer = consumer;
    }

    @Override
    boolean hasHeader() {
        return header != null;
    }

    @Override
    void onHeader(SegmentHeader h) {
        header = h;
        consumer.onHeader(h);
    }

    @Override
    void onData(ByteBuf buf) {
        int n = buf.readableBytes();
        try {
            if (!done) {
                received += n;
                // A payload that spans socket reads is handed over in pieces rather than copied together. One
                // nioBuffers() call: asking nioBufferCount() first walked a composite payload's components twice
                // (4 % of the proxies' Java time in the throughput bench's profile).
                for (java.nio.ByteBuffer piece : buf.nioBuffers()) {
                    consumer.onData(piece);
                }
            }
        } finally {
            buf.release();
        }
        PeerConnection c = connection();
        if (c != null) {
            c.consumed(this, n);
        }
    }

    @Override
    void onEnd() {
        if (done) {
            return;
        }
        if (received != header.compressedLength()) {
            fail(new FetchException(ErrorCode.WRONG_LENGTH, this + ": header announced " + header.compressedLength()
                    + " bytes, stream ended after " + received));
            return;
        }
        done = true;
        consumer.onComplete();
        connection().streamDone(this, false);
    }

    @Override
    boolean fail(FetchException e) {
        if (done) {
            return false;
        }
        done = true;
        consumer.onFailure(e);
        return true;
    }

    @Override
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
}
