package io.courier.shuffle.nm;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;

import java.io.IOException;

/**
 * Resolves NodeManager-relative paths over {@code yarn.nodemanager.local-dirs} with a {@link LocalDirAllocator}.
 * The fallback when the NodeManager did not hand the service its own handler: with the isolated aux-service class
 * loader, {@code AuxiliaryServiceWithCustomClassLoader} (3.4.3 and 3.5.0) does not forward
 * {@code setAuxiliaryLocalPathHandler} (HADOOP_VERIFIED.md §2.6). It does not know which disks the NodeManager
 * marked bad. Thread-safe.
 */
public final class LocalDirsPathHandler implements AuxiliaryLocalPathHandler {
    private final LocalDirAllocator allocator = new LocalDirAllocator(YarnConfiguration.NM_LOCAL_DIRS);
    private final Configuration conf;

    public LocalDirsPathHandler(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public Path getLocalPathForRead(String path) throws IOException {
        return allocator.getLocalPathToRead(path, conf);
    }

    @Override
    public Path getLocalPathForWrite(String path) throws IOException {
        return allocator.getLocalPathForWrite(path, conf);
    }

    @Override
    public Path getLocalPathForWrite(String path, long size) throws IOException {
        return allocator.getLocalPathForWrite(path, size, conf);
    }

    @Override
    public Iterable<Path> getAllLocalPathsForRead(String path) throws IOException {
        return allocator.getAllLocalPathsToRead(path, conf);
    }
}
