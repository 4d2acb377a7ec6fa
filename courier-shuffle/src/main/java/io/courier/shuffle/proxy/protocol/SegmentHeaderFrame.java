package io.courier.shuffle.proxy.protocol;

import java.util.Arrays;

/**
 * Answers a FETCH before its data, like Hadoop's {@code ShuffleHeader}: the map attempt, the partition, the
 * on-wire length ({@code compressedLength}, IFile bytes including the CRC32 trailer) and the raw length;
 * {@code replyMac} authenticates the reply (see {@code FetchAuthenticator}).
 */
public final class SegmentHeaderFrame implements Frame {
    private final int streamId;
    private final String mapAttempt;
    private final int partition;
    private final long compressedLength;
    private final long rawLength;
    private final byte[] replyMac;

    public SegmentHeaderFrame(int streamId, String mapAttempt, int partition, long compressedLength, long rawLength,
            byte[] replyMac) {
        this.streamId = Checks.streamId(streamId);
        this.mapAttempt = Checks.identifier("map attempt", mapAttempt);
        this.partition = partition;
        this.compressedLength = Checks.nonNegative("compressed length", compressedLength);
        this.rawLength = Checks.nonNegative("raw length", rawLength);
        this.replyMac = Checks.mac(replyMac);
    }

    @Override
    public FrameType type() {
        return FrameType.SEGMENT_HEADER;
    }

    @Override
    public int streamId() {
        return streamId;
    }

    public String mapAttempt() {
        return mapAttempt;
    }

    public int partition() {
        return partition;
    }

    public long compressedLength() {
        return compressedLength;
    }

    public long rawLength() {
        return rawLength;
    }

    public byte[] replyMac() {
        return replyMac.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SegmentHeaderFrame)) {
            return false;
        }
        SegmentHeaderFrame f = (SegmentHeaderFrame) o;
        return f.streamId == streamId && f.mapAttempt.equals(mapAttempt) && f.partition == partition
                && f.compressedLength == compressedLength && f.rawLength == rawLength
                && Arrays.equals(f.replyMac, replyMac);
    }

    @Override
    public int hashCode() {
        return streamId;
    }

    @Override
    public String toString() {
        return "SEGMENT_HEADER(stream=" + streamId + ", " + mapAttempt + ", reduce=" + partition + ", compressed="
                + compressedLength + ", raw=" + rawLength + ")";
    }
}
