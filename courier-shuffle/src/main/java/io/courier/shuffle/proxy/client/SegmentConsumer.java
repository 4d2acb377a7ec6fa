package io.courier.shuffle.proxy.client;

import java.nio.ByteBuffer;

/**
 * Receives one segment on the proxy's event loop, without a thread hand-off. Calls must return quickly and
 * never block: the bytes of {@link #onData} are credited back to the sender when the call returns, and the
 * buffer is only valid during the call. Bytes arrive in order, but not necessarily one call per DATA frame
 * (a frame that spans socket reads is handed over in pieces rather than copied together). Exactly one of
 * {@link #onComplete} or {@link #onFailure} ends the segment (a failure before the header is possible).
 */
public interface SegmentConsumer {
    void onHeader(SegmentHeader header);

    void onData(ByteBuffer data);

    void onComplete();

    void onFailure(FetchException failure);
}
