package io.courier.shuffle.proxy.protocol;

import java.util.Arrays;

/**
 * A task asks its local proxy to fetch a segment from the proxy {@code source} ({@code host:port}) and relay
 * it on stream {@code streamId} of the task connection. The other fields are those of {@link FetchFrame}; the
 * MAC is computed by the task with the job's secret and passed through unchanged (the relaying proxy holds
 * no secret: the source proxy verifies the MAC, the task verifies the reply MAC).
 */
public final class RelayFetchFrame implements Frame {
    private final int streamId;
    private final String source;
    private final String job;
    private final String mapAttempt;
    private final int partition;
    private final int initialCredit;
    private final byte[] mac;

    public RelayFetchFrame(int streamId, String source, String job, String mapAttempt, int partition,
            int initialCredit, byte[] mac) {
        this.streamId = Checks.streamId(streamId);
        this.source = Checks.identifier("source proxy", source);
        this.job = Checks.identifier("job", job);
        this.mapAttempt = Checks.identifier("map attempt", mapAttempt);
        this.partition = partition;
        this.initialCredit = (int) Checks.nonNegative("initial credit", initialCredit);
        this.mac = Checks.mac(mac);
    }

    @Override
    public FrameType type() {
        return FrameType.RELAY_FETCH;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    /** The proxy holding the map output, {@code host:port}. */
    public String source() {
        return source;
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

    public int initialCredit() {
        return initialCredit;
    }

    public byte[] mac() {
        return mac.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RelayFetchFrame)) {
            return false;
        }
        RelayFetchFrame f = (RelayFetchFrame) o;
        return f.streamId == streamId && f.source.equals(source) && f.job.equals(job)
                && f.mapAttempt.equals(mapAttempt) && f.partition == partition && f.initialCredit == initialCredit
                && Arrays.equals(f.mac, mac);
    }

    @Override
    public int hashCode() {
        return streamId * 31 + mapAttempt.hashCode();
    }

    @Override
    public String toString() {
        return "RELAY_FETCH(stream=" + streamId + ", from " + source + ", " + job + ", " + mapAttempt + ", reduce="
                + partition + ", credit=" + initialCredit + ")";
    }
}
