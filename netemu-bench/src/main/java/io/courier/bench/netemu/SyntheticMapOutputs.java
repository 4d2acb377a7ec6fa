package io.courier.bench.netemu;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.Random;

/**
 * Writes synthetic map outputs the way a Hadoop map task does ({@code MapTask.sortAndSpill}: one
 * {@link IFile.Writer} per partition on a shared {@code file.out}, a {@link SpillRecord} in {@code file.out.index})
 * where the NodeManager keeps them: {@code <localDir>/usercache/<user>/appcache/<app>/output/<attempt>/}, the
 * layout both Hadoop's ShuffleHandler and Courier's {@code NodeManagerMapOutputLocator} read. Records are random
 * bytes (incompressible, as shuffled data on the wire would be after compression). Stateless.
 */
final class SyntheticMapOutputs {
    /** Value bytes per record: large records keep the writer cheap; the reducers never look inside. */
    static final int RECORD_VALUE_BYTES = 1000;
    static final int KEY_BYTES = 10;

    private SyntheticMapOutputs() {
    }

    /** The application's directory under a NodeManager local dir: a YARN container's local dir. */
    static File appDir(File localDir, String user, String app) {
        return new File(localDir, "usercache/" + user + "/appcache/" + app);
    }

    static File attemptDir(File localDir, String user, String app, String attempt) {
        return new File(appDir(localDir, user, app), "output/" + attempt);
    }

    /**
     * Writes one map output with {@code partitionBytes.length} partitions, partition p holding about
     * {@code partitionBytes[p]} bytes of records (at least one record). Returns the on-wire length of each
     * partition (the index's {@code partLength}, what ShuffleHandler and the proxy send).
     */
    static long[] write(File localDir, String user, String app, String attempt, long[] partitionBytes, long seed)
            throws IOException {
        File dir = attemptDir(localDir, user, app, attempt);
        if (!dir.mkdirs() && !dir.isDirectory()) {
            throw new IOException("cannot create map output directory " + dir);
        }
        Configuration conf = new Configuration(false);
        Random rnd = new Random(seed);
        byte[] pool = new byte[1 << 16];
        rnd.nextBytes(pool);
        long[] lengths = new long[partitionBytes.length];
        SpillRecord spill = new SpillRecord(partitionBytes.length);
        File data = new File(dir, "file.out");
        try (FSDataOutputStream out = new FSDataOutputStream(new FileOutputStream(data), null)) {
            for (int p = 0; p < partitionBytes.length; p++) {
                long start = out.getPos();
                IFile.Writer<BytesWritable, BytesWritable> w = new IFile.Writer<>(conf, out, BytesWritable.class,
                        BytesWritable.class, null, null, false);
                long left = partitionBytes[p];
                do {
                    int v = (int) Math.max(1, Math.min(RECORD_VALUE_BYTES, left - KEY_BYTES));
                    int off = rnd.nextInt(pool.length - RECORD_VALUE_BYTES - KEY_BYTES);
                    BytesWritable key = new BytesWritable();
                    key.set(pool, off, KEY_BYTES);
                    BytesWritable value = new BytesWritable();
                    value.set(pool, off + KEY_BYTES, v);
                    w.append(key, value);
                    left -= KEY_BYTES + v + 8;
                } while (left > 0);
                w.close();
                spill.putIndex(new IndexRecord(start, w.getRawLength(), w.getCompressedLength()), p);
                lengths[p] = w.getCompressedLength();
            }
        }
        spill.writeToFile(new Path(new File(dir, "file.out.index").getAbsolutePath()), new JobConf(conf));
        return lengths;
    }
}
