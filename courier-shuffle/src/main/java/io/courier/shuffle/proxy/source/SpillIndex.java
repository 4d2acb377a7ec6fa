package io.courier.shuffle.proxy.source;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Reads {@code file.out.index} exactly as Hadoop's {@code SpillRecord(Path, JobConf)} does: per partition
 * three big-endian longs (24 bytes), followed by an 8-byte CRC32 of those records; a mismatch, a size
 * that is not {@code 24·n + 8}, or a record pointing outside the data file is a {@link CorruptIndexException}.
 * Own code rather than Hadoop's class so the proxy needs no {@code JobConf} (and no Hadoop) to serve.
 */
public final class SpillIndex {
    /** Bytes per partition record ({@code MapTask.MAP_OUTPUT_INDEX_RECORD_LENGTH}). */
    public static final int RECORD_LENGTH = 24;
    private static final int CHECKSUM_LENGTH = 8;

    private final List<IndexRecord> records;

    private SpillIndex(List<IndexRecord> records) {
        this.records = Collections.unmodifiableList(records);
    }

    /** Reads and checks an index; {@code dataLength} is the data file's size, for the bounds check. */
    public static SpillIndex read(File index, long dataLength) throws IOException {
        long size = index.length();
        if (size < CHECKSUM_LENGTH || (size - CHECKSUM_LENGTH) % RECORD_LENGTH != 0
                || size > Integer.MAX_VALUE) {
            throw new CorruptIndexException(index + ": size " + size + " is not 24 * partitions + 8");
        }
        int partitions = (int) ((size - CHECKSUM_LENGTH) / RECORD_LENGTH);
        byte[] bytes = new byte[(int) size];
        // Not following a final symbolic link: the caller checked this path's owner, not a link's target's.
        try (InputStream in = Files.newInputStream(index.toPath(), StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            new DataInputStream(in).readFully(bytes);
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, partitions * RECORD_LENGTH);
        DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
        List<IndexRecord> out = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            IndexRecord r = new IndexRecord(d.readLong(), d.readLong(), d.readLong());
            if (r.startOffset() < 0 || r.rawLength() < 0 || r.partLength() < 0
                    || r.startOffset() + r.partLength() > dataLength) {
                throw new CorruptIndexException(index + ": partition " + p + " " + r + " lies outside the data file of "
                        + dataLength + " bytes");
            }
            out.add(r);
        }
        long stored = d.readLong();
        if (stored != crc.getValue()) {
            throw new CorruptIndexException(index + ": checksum error (stored " + stored + ", computed "
                    + crc.getValue() + ")");
        }
        return new SpillIndex(out);
    }

    public int partitions() {
        return records.size();
    }

    public IndexRecord record(int partition) {
        return records.get(partition);
    }
}
