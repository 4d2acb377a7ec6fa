package io.courier.shuffle.proxy.client;

import io.netty.buffer.ByteBuf;

/**
 * Receives a relayed stream on the upstream connection's event loop (see {@link ProxyClient#relay}). Calls
 * must not block. Exactly one of {@link #onEnd} or {@link #onFailure} ends the stream, unless it was cancelled.
 */
public interface RelaySink {
    /** The source's header; {@code replyMac} is passed through unverified (the task verifies it). */
    void onHeader(SegmentHeader header, byte[] replyMac, String connectionId);

    /** Takes ownership of {@code data}. */
    void onData(ByteBuf data);

    /** The source sent END (the byte count is the task's to check). */
    void onEnd();

    void onFailure(FetchException failure);
}
