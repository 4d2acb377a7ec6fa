package io.courier.shuffle.proxy.client;

/** What a reducer learns before a segment's bytes, like Hadoop's {@code ShuffleHeader}; verified by its reply MAC. */
public final class SegmentHeader {
    private final String mapAttempt;
    private final int partition;
    private final long compressedLength;
    private final long rawLength;

    public SegmentHeader(String mapAttempt, int partition, long compressedLength, long rawLength) {
        this.mapAttempt = mapAttempt;
        this.partition = partition;
        this.compressedLength = compressedLength;
        this.rawLength = rawLength;
    }

    public String mapAttempt() {
        return mapAttempt;
    }

    public int partition() {
        return partition;
    }

    /** Bytes that follow: IFile data with its CRC32 trailer (what {@code IFileInputStream} verifies). */
    public long compressedLength() {
        return compressedLength;
    }

    public long rawLength() {
        return rawLength;
    }

    @Override
    public String toString() {
        return "SegmentHeader(" + mapAttempt + ", reduce=" + partition + ", compressed=" + compressedLength + ", raw="
                + rawLength + ")";
    }
}
