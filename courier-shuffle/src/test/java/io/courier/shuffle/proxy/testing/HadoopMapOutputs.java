package io.courier.shuffle.proxy.testing;

import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Random;

/**
 * Writes map outputs the way a Hadoop map task does ({@code MapTask.sortAndSpill}): one {@link IFile.Writer}
 * per partition on a shared {@code file.out}, and a {@link SpillRecord} written to {@code file.out.index}.
 * Also verifies fetched segments with Hadoop's own {@link IFileInputStream} checksum.
 */
public final class HadoopMapOutputs {
    private final DirectoryMapOutputLocator locator;
    private final Configuration conf = new Configuration(false);

    public HadoopMapOutputs(File root) {
        this.locator = new DirectoryMapOutputLocator(root);
    }

    public DirectoryMapOutputLocator locator() {
        return locator;
    }

    /**
     * Writes {@code partitions} segments for the attempt; partition p gets {@code recordsOf(p)} random
     * key/value records of {@code valueBytes} bytes each (seeded, so reruns are identical).
     */
    public MapOutputFiles write(String job, String attempt, int partitions, int records, int valueBytes, long seed)
            throws IOException {
        MapOutputFiles files = locator.filesOf(job, attempt);
        if (!files.data().getParentFile().mkdirs() && !files.data().getParentFile().isDirectory()) {
            throw new IOException("cannot create " + files.data().getParentFile());
        }
        Random rnd = new Random(seed);
        SpillRecord spill = new SpillRecord(partitions);
        try (FSDataOutputStream out = new FSDataOutputStream(new FileOutputStream(files.data()), null)) {
            for (int p = 0; p < partitions; p++) {
                long start = out.getPos();
                IFile.Writer<BytesWritable, BytesWritable> w = new IFile.Writer<>(conf, out, BytesWritable.class,
                        BytesWritable.class, null, null, false);
                int n = records + rnd.nextInt(records + 1);
                for (int i = 0; i < n; i++) {
                    byte[] k = new byte[8 + rnd.nextInt(8)];
                    byte[] v = new byte[valueBytes / 2 + rnd.nextInt(valueBytes)];
                    rnd.nextBytes(k);
                    rnd.nextBytes(v);
                    w.append(new BytesWritable(k), new BytesWritable(v));
                }
                w.close();
                spill.putIndex(new IndexRecord(start, w.getRawLength(), w.getCompressedLength()), p);
            }
        }
        spill.writeToFile(new Path(files.index().getAbsolutePath()), new JobConf(conf));
        return files;
    }

    /** The bytes Hadoop's ShuffleHandler sends for the partition: {@code partLength} bytes at {@code startOffset}. */
    public byte[] expectedSegment(MapOutputFiles files, int partition) throws IOException {
        SpillRecord spill = new SpillRecord(new Path(files.index().getAbsolutePath()), new JobConf(conf));
        IndexRecord r = spill.getIndex(partition);
        byte[] b = new byte[(int) r.partLength];
        try (RandomAccessFile f = new RandomAccessFile(files.data(), "r")) {
            f.seek(r.startOffset);
            f.readFully(b);
        }
        return b;
    }

    /** Reads a fetched segment through Hadoop's {@link IFileInputStream}, which throws on a CRC32 mismatch. */
    public void verifyChecksum(byte[] segment) throws IOException {
        verifyStreaming(new ByteArrayInputStream(segment), segment.length);
    }

    /**
     * Reads {@code length} segment bytes from {@code stream} through {@link IFileInputStream}, as
     * {@code IFileWrappedMapOutput.shuffle} does with the fetcher's stream; throws on a CRC32 mismatch.
     */
    public void verifyStreaming(java.io.InputStream stream, long length) throws IOException {
        try (IFileInputStream in = new IFileInputStream(stream, length, conf)) {
            byte[] buf = new byte[8192];
            long left = length - 4L;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    throw new IOException("segment ended early");
                }
                left -= n;
            }
        }
    }
}
