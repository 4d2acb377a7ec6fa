package io.courier.shuffle.proxy.source;

import io.courier.shuffle.proxy.protocol.ErrorCode;

import java.io.File;
import java.io.IOException;
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

    private MapOutputFiles locate(String job, String mapAttempt) throws IOException {
        String key = locationKey(job, mapAttempt);
        synchronized (this) {
            Located l = locations.get(key);
            // One stat keeps "no such output" exact if the files went away while the job was still known.
            if (l != null && l.files.index().isFile()) {
                return l.files;
            }
        }
        MapOutputFiles files = locator.locate(job, mapAttempt);
        synchronized (this) {
            locates++;
            if (files != null) {
                locations.put(key, new Located(job, files));
            }
        }
        return files;
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

    private SpillIndex index(String job, MapOutputFiles files) throws IOException {
        File f = files.index();
        long length = f.length();
        long modified = f.lastModified();
        long dataLength = files.data().length();
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

    public Segment open(String job, String mapAttempt, int partition) throws SegmentException {
        MapOutputFiles files;
        try {
            files = locate(job, mapAttempt);
        } catch (IOException e) {
            throw new SegmentException(ErrorCode.IO_ERROR, "locating output of " + mapAttempt + ": " + e.getMessage());
        }
        if (files == null) {
            throw new SegmentException(ErrorCode.NO_SUCH_MAP_OUTPUT, "no output of " + mapAttempt + " (" + job
                    + ") on this node");
        }
        SpillIndex index;
        try {
            index = index(job, files);
        } catch (CorruptIndexException e) {
            forgetLocation(job, mapAttempt);
            throw new SegmentException(ErrorCode.CORRUPT_INDEX, e.getMessage());
        } catch (IOException e) {
            forgetLocation(job, mapAttempt);
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
