package io.courier.shuffle.proxy.protocol;

import java.util.Arrays;

/**
 * Opens stream {@code streamId}: asks for the segment of reduce {@code partition} in the output of map
 * {@code mapAttempt} of {@code job}, granting {@code initialCredit} bytes of window, authenticated by
 * {@code mac} (HMAC-SHA256 with the job's secret, see {@code FetchAuthenticator}).
 */
public final class FetchFrame implements Frame {
    private final int streamId;
    private final String job;
    private final String mapAttempt;
    private final int partition;
    private final int initialCredit;
    private final byte[] mac;

    public FetchFrame(int streamId, String job, String mapAttempt, int partition, int initialCredit, byte[] mac) {
        this.streamId = Checks.streamId(streamId);
        this.job = Checks.identifier("job", job);
        this.mapAttempt = Checks.identifier("map attempt", mapAttempt);
        this.partition = partition;
        this.initialCredit = (int) Checks.nonNegative("initial credit", initialCredit);
        this.mac = Checks.mac(mac);
    }

    @Override
    public FrameType type() {
        return FrameType.FETCH;
    }

    @Override
    public int streamId() {
        return streamId;
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
        if (!(o instanceof FetchFrame)) {
            return false;
        }
        FetchFrame f = (FetchFrame) o;
        return f.streamId == streamId && f.job.equals(job) && f.mapAttempt.equals(mapAttempt)
                && f.partition == partition && f.initialCredit == initialCredit && Arrays.equals(f.mac, mac);
    }

    @Override
    public int hashCode() {
        return streamId * 31 + mapAttempt.hashCode();
    }

    @Override
    public String toString() {
        return "FETCH(stream=" + streamId + ", " + job + ", " + mapAttempt + ", reduce=" + partition + ", credit="
                + initialCredit + ")";
    }
}
