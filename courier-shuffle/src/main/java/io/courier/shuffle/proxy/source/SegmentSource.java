package io.courier.shuffle.proxy.source;

import io.courier.shuffle.proxy.UidNames;
import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Resolves a fetch to the segment ShuffleHandler would send for it: locate the map output, read its index
 * (CRC-checked), range-check the partition. Failures carry the protocol error code to answer with.
 *
 * <p>Every reducer of a job asks for the same map's index, so checked indexes are kept in a small LRU cache
 * (like ShuffleHandler's {@code IndexCache}), keyed by file and revalidated by size and modification time. The
 * files' location is cached too (like ShuffleHandler's path cache): resolving it through the NodeManager's local
 * dirs costs more than serving a small segment. A location is dropped with its job, and whenever reading through
 * it fails, so the next fetch resolves it again. Thread-safe.
 *
 * <p>File-system calls per fetch: one attribute read of the index (whether it still exists, and the size and
 * modification time the cached index is revalidated with), and, through {@link #openForReading}, one open of the
 * data file whose {@code size()} is the length the index is checked against: the open the sender needs anyway,
 * instead of three more {@code stat}s by path. Where the files name an owner, the index's attribute read carries
 * its uid and the data file takes one more {@code lstat}; neither follows a final symbolic link, and a file owned
 * by anyone but the job's user is refused with {@link ErrorCode#OUTPUT_NOT_OWNED}. The check is by path, before
 * the open (Java has no {@code fstat}): a file swapped in between must be a hard link, which Linux's
 * {@code fs.protected_hardlinks} (on by default) lets a user make only to files they own.
 */
public final class SegmentSource {
    /** Indexes kept in the cache (a 100-partition index is 2.4 KB). */
    public static final int INDEX_CACHE_ENTRIES = 1024;
    /** Map-output locations kept in the cache. */
    public static final int LOCATION_CACHE_ENTRIES = 16384;

    private final MapOutputLocator locator;
    private final Map<File, CachedIndex> cache = new LinkedHashMap<File, CachedIndex>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<File, CachedIndex> eldest) {
            return size() > INDEX_CACHE_ENTRIES;
        }
    };
    private final Map<String, Located> locations = new LinkedHashMap<String, Located>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Located> eldest) {
            return size() > LOCATION_CACHE_ENTRIES;
        }
    };
    private final UidNames owners = new UidNames();
    private long indexReads;
    private long locates;

    public SegmentSource(MapOutputLocator locator) {
        this.locator = locator;
    }

    /** Index files read from disk so far (cache misses). */
    public synchronized long indexReads() {
        return indexReads;
    }

    /** Locator calls so far (location cache misses). */
    public synchronized long locates() {
        return locates;
    }

    /** Drops the cached indexes and locations of {@code job} (its outputs are about to be deleted). */
    public synchronized void forgetJob(String job) {
        cache.values().removeIf(c -> c.job.equals(job));
        locations.values().removeIf(l -> l.job.equals(job));
    }

    private static final class Located {
        final String job;
        final MapOutputFiles files;

        Located(String job, MapOutputFiles files) {
            this.job = job;
            this.files = files;
        }
    }

    private static String locationKey(String job, String mapAttempt) {
        return job + '/' + mapAttempt;
    }

    /** The map output's files with their index's attributes, read once: they serve both checks below. */
    private static final class Found {
        final MapOutputFiles files;
        final IndexStat stat;

        Found(MapOutputFiles files, IndexStat stat) {
            this.files = files;
            this.stat = stat;
        }
    }

    /**
     * What {@link File#isFile()}, {@link File#length()} and {@link File#lastModified()} say, and the owner's uid
     * where ownership is checked, from one {@code lstat}: a symbolic link is no file.
     */
    private static final class IndexStat {
        /** {@link #uid} when ownership is not checked. */
        static final int UNKNOWN_UID = -1;
        final boolean isFile;
        final long length;
        final long modified;
        final int uid;

        IndexStat(boolean isFile, long length, long modified, int uid) {
            this.isFile = isFile;
            this.length = length;
            this.modified = modified;
            this.uid = uid;
        }

        /** As the {@code File} methods: a file that cannot be read is no file, of length 0, modified at 0. */
        static IndexStat of(MapOutputFiles files) {
            Path p = files.index().toPath();
            try {
                if (files.owner() == null) {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS);
                    return new IndexStat(a.isRegularFile(), a.size(), a.lastModifiedTime().toMillis(), UNKNOWN_UID);
                }
                Map<String, Object> a = Files.readAttributes(p, "unix:isRegularFile,size,lastModifiedTime,uid",
                        LinkOption.NOFOLLOW_LINKS);
                return new IndexStat((Boolean) a.get("isRegularFile"), (Long) a.get("size"),
                        ((FileTime) a.get("lastModifiedTime")).toMillis(), (Integer) a.get("uid"));
            } catch (IOException | RuntimeException e) {
                return new IndexStat(false, 0L, 0L, UNKNOWN_UID);
            }
        }
    }

    /**
     * Refuses a map output file not owned by its job's user ({@link MapOutputFiles#owner()}): a job's user could
     * otherwise leave a link, or a hard link, at its own {@code file.out} to any file the NodeManager can read and
     * fetch it with its own job's token (Hadoop's ShuffleHandler opens both files with {@code SecureIOUtils}).
     */
    private void checkOwner(MapOutputFiles files, File file, int uid, String mapAttempt) throws SegmentException {
        String expected = files.owner();
        if (expected == null) {
            return;
        }
        String actual;
        try {
            actual = uid == IndexStat.UNKNOWN_UID ? null : owners.nameOf(uid, file.toPath());
        } catch (IOException e) {
            actual = null;
        }
        if (!expected.equals(actual)) {
            throw new SegmentException(ErrorCode.OUTPUT_NOT_OWNED, "output of " + mapAttempt + ": " + file
                    + " is owned by " + (actual == null ? "uid " + uid : actual) + ", not by " + expected
                    + ", the user its job's tasks run as");
        }
    }

    /**
     * The data file must be no symbolic link and owned by the job's user; a missing one fails later, at its open,
     * as it does unchecked.
     */
    private void checkDataOwner(MapOutputFiles files, String mapAttempt) throws SegmentException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(files.data().toPath(), "unix:uid,isSymbolicLink", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            return;
        }
        if ((Boolean) a.get("isSymbolicLink")) {
            throw new SegmentException(ErrorCode.OUTPUT_NOT_OWNED, "output of " + mapAttempt + ": " + files.data()
                    + " is a symbolic link; map outputs are read only from their own files");
        }
        checkOwner(files, files.data(), (Integer) a.get("uid"), mapAttempt);
    }

    private Found locate(String job, String mapAttempt) throws IOException {
        String key = locationKey(job, mapAttempt);
        MapOutputFiles cached;
        synchronized (this) {
            Located l = locations.get(key);
            cached = l == null ? null : l.files;
        }
        if (cached != null) {
            // One stat keeps "no such output" exact if the files went away while the job was still known.
            IndexStat stat = IndexStat.of(cached);
            if (stat.isFile) {
                return new Found(cached, stat);
            }
        }
        MapOutputFiles files = locator.locate(job, mapAttempt);
        synchronized (this) {
            locates++;
            if (files != null) {
                locations.put(key, new Located(job, files));
            }
        }
        return files == null ? null : new Found(files, IndexStat.of(files));
    }

    private synchronized void forgetLocation(String job, String mapAttempt) {
        locations.remove(locationKey(job, mapAttempt));
    }

    private static final class CachedIndex {
        final String job;
        final long length;
        final long modified;
        final long dataLength;
        final SpillIndex index;

        CachedIndex(String job, long length, long modified, long dataLength, SpillIndex index) {
            this.job = job;
            this.length = length;
            this.modified = modified;
            this.dataLength = dataLength;
            this.index = index;
        }
    }

    private SpillIndex index(String job, MapOutputFiles files, IndexStat stat, long dataLength) throws IOException {
        File f = files.index();
        long length = stat.length;
        long modified = stat.modified;
        synchronized (this) {
            CachedIndex c = cache.get(f);
            if (c != null && c.length == length && c.modified == modified && c.dataLength == dataLength) {
                return c.index;
            }
        }
        SpillIndex idx = SpillIndex.read(f, dataLength);
        synchronized (this) {
            indexReads++;
            cache.put(f, new CachedIndex(job, length, modified, dataLength, idx));
        }
        return idx;
    }

    /** Resolves a fetch to its segment (the data file's length by path; tests and tools). */
    public Segment open(String job, String mapAttempt, int partition) throws SegmentException {
        return resolve(job, mapAttempt, partition, false).segment();
    }

    /**
     * As {@link #open}, and opens the data file for reading: its {@code size()} bounds the index, so a fetch
     * costs one open instead of a {@code stat} by path and an open. The caller owns the returned channel; on
     * failure nothing stays open. A data file that cannot be opened fails as the sender's own open did before,
     * with {@link ErrorCode#IO_ERROR} "opening output of ...", after the index checks (a missing data file
     * counts as empty for them, as {@link File#length()} does).
     */
    public OpenSegment openForReading(String job, String mapAttempt, int partition) throws SegmentException {
        return resolve(job, mapAttempt, partition, true);
    }

    private OpenSegment resolve(String job, String mapAttempt, int partition, boolean openData)
            throws SegmentException {
        Found located;
        try {
            located = locate(job, mapAttempt);
        } catch (IOException e) {
            throw new SegmentException(ErrorCode.IO_ERROR, "locating output of " + mapAttempt + ": " + e.getMessage());
        }
        if (located == null) {
            throw new SegmentException(ErrorCode.NO_SUCH_MAP_OUTPUT, "no output of " + mapAttempt + " (" + job
                    + ") on this node");
        }
        MapOutputFiles files = located.files;
        if (located.stat.isFile) {
            checkOwner(files, files.index(), located.stat.uid, mapAttempt);
        } else if (files.owner() != null && Files.isSymbolicLink(files.index().toPath())) {
            throw new SegmentException(ErrorCode.OUTPUT_NOT_OWNED, "output of " + mapAttempt + ": " + files.index()
                    + " is a symbolic link; map outputs are read only from their own files");
        }
        if (files.owner() != null) {
            checkDataOwner(files, mapAttempt);
        }
        FileChannel data = null;
        IOException openFailure = null;
        long dataLength;
        if (openData) {
            try {
                data = FileChannel.open(files.data().toPath(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                dataLength = data.size();
            } catch (IOException e) {
                closeQuietly(data);
                data = null;
                openFailure = e;
                dataLength = 0L;
            }
        } else {
            dataLength = files.data().length();
        }
        boolean handedOver = false;
        try {
            SpillIndex index;
            try {
                index = index(job, files, located.stat, dataLength);
            } catch (CorruptIndexException e) {
                forgetLocation(job, mapAttempt);
                throw new SegmentException(ErrorCode.CORRUPT_INDEX, e.getMessage());
            } catch (IOException e) {
                forgetLocation(job, mapAttempt);
                throw new SegmentException(ErrorCode.IO_ERROR, "reading index of " + mapAttempt + ": "
                        + e.getMessage());
            }
            if (partition < 0 || partition >= index.partitions()) {
                throw new SegmentException(ErrorCode.PARTITION_OUT_OF_RANGE, "partition " + partition + " of "
                        + mapAttempt + " is outside [0, " + index.partitions() + ")");
            }
            if (openFailure != null) {
                throw new SegmentException(ErrorCode.IO_ERROR, "opening output of " + mapAttempt + ": "
                        + openFailure.getMessage());
            }
            IndexRecord r = index.record(partition);
            OpenSegment opened = new OpenSegment(new Segment(files.data(), r.startOffset(), r.partLength(),
                    r.rawLength()), data);
            handedOver = true;
            return opened;
        } finally {
            if (!handedOver) {
                closeQuietly(data);
            }
        }
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // opened for reading only: nothing to lose
            }
        }
    }
}
