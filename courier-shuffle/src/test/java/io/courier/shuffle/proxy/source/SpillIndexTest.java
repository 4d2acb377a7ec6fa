package io.courier.shuffle.proxy.source;

import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.RandomAccessFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our index reader against files written by Hadoop's own SpillRecord. */
class SpillIndexTest {
    private static final String JOB = "job_1_0001";
    private static final String MAP = "attempt_1_0001_m_000000_0";

    @TempDir
    File dir;

    @Test
    void readsWhatHadoopWrote() throws Exception {
        HadoopMapOutputs out = new HadoopMapOutputs(dir);
        MapOutputFiles files = out.write(JOB, MAP, 7, 20, 50, 1);
        SpillIndex ours = SpillIndex.read(files.index(), files.data().length());
        SpillRecord theirs = new SpillRecord(new Path(files.index().getAbsolutePath()), new JobConf(false));
        assertEquals(theirs.size(), ours.partitions());
        for (int p = 0; p < 7; p++) {
            assertEquals(theirs.getIndex(p).startOffset, ours.record(p).startOffset());
            assertEquals(theirs.getIndex(p).rawLength, ours.record(p).rawLength());
            assertEquals(theirs.getIndex(p).partLength, ours.record(p).partLength());
        }
    }

    @Test
    void checksumMismatchIsDetected() throws Exception {
        MapOutputFiles files = new HadoopMapOutputs(dir).write(JOB, MAP, 3, 5, 10, 2);
        try (RandomAccessFile f = new RandomAccessFile(files.index(), "rw")) {
            f.seek(f.length() - 1);
            int b = f.read();
            f.seek(f.length() - 1);
            f.write(b ^ 1);
        }
        CorruptIndexException e = assertThrows(CorruptIndexException.class,
                () -> SpillIndex.read(files.index(), files.data().length()));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void truncatedIndexIsDetected() throws Exception {
        MapOutputFiles files = new HadoopMapOutputs(dir).write(JOB, MAP, 3, 5, 10, 3);
        try (RandomAccessFile f = new RandomAccessFile(files.index(), "rw")) {
            f.setLength(f.length() - 5);
        }
        assertThrows(CorruptIndexException.class, () -> SpillIndex.read(files.index(), files.data().length()));
    }

    @Test
    void recordsOutsideTheDataFileAreDetected() throws Exception {
        MapOutputFiles files = new HadoopMapOutputs(dir).write(JOB, MAP, 3, 5, 10, 4);
        try (RandomAccessFile f = new RandomAccessFile(files.data(), "rw")) {
            f.setLength(f.length() - 10);
        }
        CorruptIndexException e = assertThrows(CorruptIndexException.class,
                () -> SpillIndex.read(files.index(), files.data().length()));
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
    }

    @Test
    void segmentSourceMapsFailuresToErrorCodes() throws Exception {
        HadoopMapOutputs out = new HadoopMapOutputs(dir);
        MapOutputFiles files = out.write(JOB, MAP, 3, 5, 10, 5);
        SegmentSource source = new SegmentSource(out.locator());
        Segment s = source.open(JOB, MAP, 2);
        SpillIndex idx = SpillIndex.read(files.index(), files.data().length());
        assertEquals(idx.record(2).startOffset(), s.offset());
        assertEquals(idx.record(2).partLength(), s.length());
        assertEquals(ErrorCode.PARTITION_OUT_OF_RANGE,
                assertThrows(SegmentException.class, () -> source.open(JOB, MAP, 3)).code());
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT,
                assertThrows(SegmentException.class, () -> source.open(JOB, "attempt_1_0001_m_000001_0", 0)).code());
    }

    @Test
    void indexesAreCachedAndRereadWhenTheFileChanges() throws Exception {
        HadoopMapOutputs out = new HadoopMapOutputs(dir);
        MapOutputFiles files = out.write(JOB, MAP, 3, 5, 10, 6);
        SegmentSource source = new SegmentSource(out.locator());
        for (int p = 0; p < 3; p++) {
            source.open(JOB, MAP, p);
        }
        assertEquals(1, source.indexReads(), "three reducers, one index read");
        // A corrupted rewrite (different size) is noticed, read again and refused.
        try (RandomAccessFile f = new RandomAccessFile(files.index(), "rw")) {
            f.setLength(f.length() + 24);
        }
        assertEquals(ErrorCode.CORRUPT_INDEX,
                assertThrows(SegmentException.class, () -> source.open(JOB, MAP, 0)).code());
    }

    @Test
    void locationsAreCachedUntilTheJobEndsOrTheFilesGo() throws Exception {
        HadoopMapOutputs out = new HadoopMapOutputs(dir);
        MapOutputFiles files = out.write(JOB, MAP, 3, 5, 10, 7);
        SegmentSource source = new SegmentSource(out.locator());
        for (int p = 0; p < 3; p++) {
            source.open(JOB, MAP, p);
        }
        assertEquals(1, source.locates(), "three reducers, one lookup in the local dirs");
        source.forgetJob(JOB);
        source.open(JOB, MAP, 0);
        assertEquals(2, source.locates(), "a finished job's locations are forgotten");
        // Output removed while the job is still known: the answer stays "no such output", not a stale path.
        assertTrue(files.index().delete() && files.data().delete());
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT,
                assertThrows(SegmentException.class, () -> source.open(JOB, MAP, 0)).code());
        assertEquals(3, source.locates());
    }

    @Test
    void openForReadingGivesTheSegmentOfOpenWithItsDataFileOpen() throws Exception {
        HadoopMapOutputs out = new HadoopMapOutputs(dir);
        MapOutputFiles files = out.write(JOB, MAP, 3, 5, 10, 8);
        SegmentSource source = new SegmentSource(out.locator());
        Segment expected = source.open(JOB, MAP, 1);
        OpenSegment o = source.openForReading(JOB, MAP, 1);
        try {
            assertEquals(files.data(), o.segment().file());
            assertEquals(expected.offset(), o.segment().offset());
            assertEquals(expected.length(), o.segment().length());
            assertEquals(expected.rawLength(), o.segment().rawLength());
            assertTrue(o.channel().isOpen());
            assertEquals(files.data().length(), o.channel().size());
        } finally {
            o.channel().close();
        }
        for (int p = 0; p < 3; p++) {
            source.openForReading(JOB, MAP, p).channel().close();
        }
        assertEquals(1, source.indexReads(), "the opened file's size revalidates the cached index");
        assertEquals(1, source.locates());
    }

    @Test
    void openForReadingChecksTheIndexAgainstTheOpenedDataFile() throws Exception {
        HadoopMapOutputs out = new HadoopMapOutputs(dir);
        MapOutputFiles files = out.write(JOB, MAP, 3, 5, 10, 9);
        SegmentSource source = new SegmentSource(out.locator());
        source.openForReading(JOB, MAP, 0).channel().close();
        try (RandomAccessFile f = new RandomAccessFile(files.data(), "rw")) {
            f.setLength(f.length() - 10);
        }
        SegmentException e = assertThrows(SegmentException.class, () -> source.openForReading(JOB, MAP, 0));
        assertEquals(ErrorCode.CORRUPT_INDEX, e.code(), "a cached index is rechecked against the shorter file");
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
        // The refusal dropped the location; without its data file the output is gone, not a stale path.
        assertTrue(files.data().delete());
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT,
                assertThrows(SegmentException.class, () -> source.openForReading(JOB, MAP, 1)).code());
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT, assertThrows(SegmentException.class,
                () -> source.openForReading(JOB, "attempt_1_0001_m_000001_0", 0)).code());
    }
}
