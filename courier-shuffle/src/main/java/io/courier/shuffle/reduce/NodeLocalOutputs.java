package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.auth.MapAttemptIds;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SecureIOUtils;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * The map outputs of this reducer's job that sit on this reducer's own node, read straight from their files as
 * Hadoop's {@code LocalFetcher} reads them: a map task writes {@code output/<mapAttempt>/file.out} and its
 * {@code file.out.index} under the application's local dirs, which are the reduce task's own local dirs
 * ({@code mapreduce.cluster.local.dir}, set by YARN from the container's {@code LOCAL_DIRS}). Same user, same
 * application directory: no proxy, no socket, no privilege change. The index is read with its checksum
 * ({@link SpillRecord}) and both files are opened owner-checked ({@link SecureIOUtils}, which checks where Hadoop's
 * security is on) against this task's user, who wrote them.
 *
 * <p>Not used for jobs with encrypted intermediate data (their segments carry crypto padding the local read would
 * have to strip): those go through the proxy like any other segment.
 *
 * <p>The dirs are read from the configuration once and searched with plain file checks, as
 * {@code LocalDirAllocator.getLocalPathToRead} searches them, but without its shared per-key state: that is
 * synchronized across every allocator of the key in the JVM and re-validates (creates, checks, writes a probe file
 * into) every dir whenever it sees another list of dirs than last time, which serialized the fetch workers of
 * reducers sharing a JVM. Immutable; thread-safe.
 */
final class NodeLocalOutputs {
    private static final String OUTPUT_DIR = "output/";
    private static final String DATA_FILE = "file.out";
    private static final String INDEX_FILE = "file.out.index";

    private final JobConf conf;
    private final String job;
    private final String owner;
    private final String[] dirs;

    private NodeLocalOutputs(JobConf conf, String job, String owner) {
        this.conf = conf;
        this.job = job;
        this.owner = owner;
        this.dirs = conf.getTrimmedStrings(MRConfig.LOCAL_DIR);
    }

    /** The node-local outputs of {@code job} as its task user {@code owner} reads them, or null where not allowed. */
    static NodeLocalOutputs of(JobConf conf, String job, String owner) {
        if (conf.getBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA,
                MRJobConfig.DEFAULT_MR_ENCRYPTED_INTERMEDIATE_DATA)) {
            return null;
        }
        return new NodeLocalOutputs(conf, job, owner);
    }

    /**
     * Reduce {@code partition} of {@code mapAttempt}'s output, opened from this node's local dirs, or null when
     * the map's files are not there (the caller fetches it through the proxy instead).
     *
     * @throws IOException the files are there but unreadable, not the owner's, or inconsistent (a bad checksum of
     *                     the index, a partition the index lacks, a data file shorter than the index says): a read
     *                     error of that map, naming the job, map and file
     */
    LocalSegment open(String mapAttempt, int partition) throws IOException {
        if (!MapAttemptIds.belongsTo(job, mapAttempt)) {
            return null; // the id becomes a path element: only well-formed attempts of this job
        }
        File dir = null;
        for (String d : dirs) {
            File candidate = new File(d, OUTPUT_DIR + mapAttempt);
            if (new File(candidate, INDEX_FILE).isFile()) {
                dir = candidate;
                break;
            }
        }
        if (dir == null) {
            return null;
        }
        Path index = new Path(new File(dir, INDEX_FILE).getAbsolutePath());
        IndexRecord record;
        try {
            SpillRecord spills = new SpillRecord(index, conf, owner);
            if (partition < 0 || partition >= spills.size()) {
                throw new IOException("has " + spills.size() + " partitions, no partition " + partition);
            }
            record = spills.getIndex(partition);
        } catch (IOException e) {
            throw new IOException("node-local index " + index + " of map " + mapAttempt + " (" + job + "): "
                    + e.getMessage(), e);
        }
        File file = new File(dir, DATA_FILE);
        RandomAccessFile in = SecureIOUtils.openForRandomRead(file, "r", owner, null);
        boolean done = false;
        try {
            long end = record.startOffset + record.partLength;
            if (record.startOffset < 0 || record.partLength < 0 || record.rawLength < 0 || end > in.length()) {
                throw new IOException("node-local map output " + file + " of map " + mapAttempt + " (" + job
                        + ") has " + in.length() + " bytes; its index places partition " + partition + " at "
                        + record.startOffset + ".." + end + " (raw " + record.rawLength + ")");
            }
            in.seek(record.startOffset);
            done = true;
            return new LocalSegment(mapAttempt, partition, record.partLength, record.rawLength, in, file);
        } finally {
            if (!done) {
                in.close();
            }
        }
    }
}
