package io.courier.shuffle.proxy.client;

import java.nio.ByteBuffer;

/**
 * Receives one segment on the proxy's event loop, without a thread hand-off. Calls must return quickly and
 * never block: the bytes of {@link #onData} are credited back to the sender when the call returns, and the
 * buffer is only valid during the call. Exactly one of {@link #onComplete} or {@link #onFailure} ends the
 * segment (a failure before the header is possible).
 */
public interface SegmentConsumer {
    void onHeader(SegmentHeader header);

    void onData(ByteBuffer data);

    void onComplete();

    void onFailure(FetchException failure);
}
