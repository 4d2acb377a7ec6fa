package io.courier.shuffle.proxy.source;

import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.IOException;

/**
 * Resolves a fetch to the segment ShuffleHandler would send for it: locate the map output, read its index
 * (CRC-checked), range-check the partition. Failures carry the protocol error code to answer with.
 */
public final class SegmentSource {
    private final MapOutputLocator locator;

    public SegmentSource(MapOutputLocator locator) {
        this.locator = locator;
    }

    public Segment open(String job, String mapAttempt, int partition) throws SegmentException {
        MapOutputFiles files;
        try {
            files = locator.locate(job, mapAttempt);
        } catch (IOException e) {
            throw new SegmentException(ErrorCode.IO_ERROR, "locating output of " + mapAttempt + ": " + e.getMessage());
        }
        if (files == null) {
            throw new SegmentException(ErrorCode.NO_SUCH_MAP_OUTPUT, "no output of " + mapAttempt + " (" + job
                    + ") on this node");
        }
        SpillIndex index;
        try {
            index = SpillIndex.read(files.index(), files.data().length());
        } catch (CorruptIndexException e) {
            throw new SegmentException(ErrorCode.CORRUPT_INDEX, e.getMessage());
        } catch (IOException e) {
            throw new SegmentException(ErrorCode.IO_ERROR, "reading index of " + mapAttempt + ": " + e.getMessage());
        }
        if (partition < 0 || partition >= index.partitions()) {
            throw new SegmentException(ErrorCode.PARTITION_OUT_OF_RANGE, "partition " + partition + " of "
                    + mapAttempt + " is outside [0, " + index.partitions() + ")");
        }
        IndexRecord r = index.record(partition);
        return new Segment(files.data(), r.startOffset(), r.partLength(), r.rawLength());
    }
}
