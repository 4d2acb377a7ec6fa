package io.courier.shuffle.proxy.protocol;

/**
 * A task asks its local proxy to fetch a segment from the proxy {@code source} ({@code host:port}) and relay
 * it on stream {@code streamId} of the task connection. The other fields are those of {@link FetchFrame}; the
 * MAC is computed by the task with the job's secret and passed through unchanged (the relaying proxy holds
 * no secret: the source proxy verifies the MAC, the task verifies the reply MAC).
 */
public final class RelayFetchFrame implements Frame {
    private final String source;
    private final FetchFrame fetch;

    public RelayFetchFrame(int streamId, String source, String job, String mapAttempt, int partition,
            int initialCredit, byte[] mac) {
        this.source = Checks.identifier("source proxy", source);
        this.fetch = new FetchFrame(streamId, job, mapAttempt, partition, initialCredit, mac);
    }

    @Override
    public FrameType type() {
        return FrameType.RELAY_FETCH;
    }

    @Override
    public int streamId() {
        return fetch.streamId();
    }

    /** The proxy holding the map output, {@code host:port}. */
    public String source() {
        return source;
    }

    /** The request as the source proxy will see it, on the task connection's stream id. */
    public FetchFrame fetch() {
        return fetch;
    }

    public String job() {
        return fetch.job();
    }

    public String mapAttempt() {
        return fetch.mapAttempt();
    }

    public int partition() {
        return fetch.partition();
    }

    public int initialCredit() {
        return fetch.initialCredit();
    }

    public byte[] mac() {
        return fetch.mac();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelayFetchFrame && ((RelayFetchFrame) o).source.equals(source)
                && ((RelayFetchFrame) o).fetch.equals(fetch);
    }

    @Override
    public int hashCode() {
        return fetch.hashCode();
    }

    @Override
    public String toString() {
        return "RELAY_FETCH(stream=" + streamId() + ", from " + source + ", " + job() + ", " + mapAttempt()
                + ", reduce=" + partition() + ", credit=" + initialCredit() + ")";
    }
}
