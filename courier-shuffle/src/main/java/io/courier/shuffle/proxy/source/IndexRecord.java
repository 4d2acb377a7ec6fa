package io.courier.shuffle.proxy.source;

/**
 * One partition's entry of a map output index (Hadoop's {@code IndexRecord}): where the partition's
 * segment starts in {@code file.out}, its raw (uncompressed) length and its on-disk length, which includes
 * the IFile CRC32 trailer.
 */
public final class IndexRecord {
    private final long startOffset;
    private final long rawLength;
    private final long partLength;

    public IndexRecord(long startOffset, long rawLength, long partLength) {
        this.startOffset = startOffset;
        this.rawLength = rawLength;
        this.partLength = partLength;
    }

    public long startOffset() {
        return startOffset;
    }

    public long rawLength() {
        return rawLength;
    }

    public long partLength() {
        return partLength;
    }

    @Override
    public String toString() {
        return "IndexRecord(start=" + startOffset + ", raw=" + rawLength + ", part=" + partLength + ")";
    }
}
