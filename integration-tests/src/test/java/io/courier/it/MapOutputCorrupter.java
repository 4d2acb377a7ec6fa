package io.courier.it;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Flips one byte in the data of the first finished map output of one job, under the NodeManagers' local dirs,
 * while the job runs (its reducers must start late: slowstart 1.0). A map writes {@code file.out} completely
 * before {@code file.out.index} appears, so an output with an index is finished and no longer written.
 *
 * <p>Owns one polling thread, started by the constructor and stopped by {@link #close()}; the test thread reads
 * the result through {@link #corrupted()}.
 */
final class MapOutputCorrupter implements AutoCloseable {
    /** Where the byte was flipped. */
    record Corruption(String mapAttempt, File file, long offset) {
    }

    private final MiniCourierCluster cluster;
    private final String appId;
    private final String mapAttemptPrefix;
    private final CompletableFuture<Corruption> result = new CompletableFuture<>();
    private final Thread poller;
    private volatile boolean stopped;

    /** Starts watching for map outputs of job {@code jobId} (e.g. {@code job_1795_0003}). */
    MapOutputCorrupter(MiniCourierCluster cluster, String jobId) {
        this.cluster = cluster;
        String suffix = jobId.substring("job_".length());
        this.appId = "application_" + suffix;
        this.mapAttemptPrefix = "attempt_" + suffix + "_m_";
        this.poller = new Thread(this::poll, "map-output-corrupter");
        this.poller.setDaemon(true);
        this.poller.start();
    }

    /** The corruption, once done. */
    Optional<Corruption> corrupted() {
        return Optional.ofNullable(result.getNow(null));
    }

    private void poll() {
        try {
            while (!stopped && !result.isDone()) {
                Optional<Corruption> c = tryCorrupt();
                if (c.isPresent()) {
                    result.complete(c.get());
                    return;
                }
                Thread.sleep(20); // polling the file system: nothing to wait on
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    private Optional<Corruption> tryCorrupt() throws IOException {
        for (int i = 0; i < cluster.nodeManagerCount(); i++) {
            for (File local : cluster.localDirs(i)) {
                File users = new File(local, "usercache");
                File[] userDirs = users.listFiles();
                if (userDirs == null) {
                    continue;
                }
                for (File user : userDirs) {
                    File output = new File(user, "appcache" + File.separator + appId + File.separator + "output");
                    File[] attempts = output.listFiles((d, name) -> name.startsWith(mapAttemptPrefix));
                    if (attempts == null) {
                        continue;
                    }
                    for (File attempt : attempts) {
                        File index = new File(attempt, "file.out.index");
                        File data = new File(attempt, "file.out");
                        if (index.isFile() && data.isFile() && index.length() >= 24) {
                            Optional<Corruption> c = corrupt(attempt.getName(), index, data);
                            if (c.isPresent()) {
                                return c;
                            }
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Flips a byte in the middle of partition 0's data (not its CRC trailer). */
    private static Optional<Corruption> corrupt(String attempt, File index, File data) throws IOException {
        long start;
        long partLength;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(index.toPath()))) {
            start = in.readLong();
            in.readLong(); // raw length
            partLength = in.readLong();
        }
        if (partLength < 64) {
            return Optional.empty();
        }
        long offset = start + (partLength - 4) / 2;
        try (RandomAccessFile f = new RandomAccessFile(data, "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x5A);
            f.getFD().sync();
        }
        return Optional.of(new Corruption(attempt, data, offset));
    }

    @Override
    public void close() {
        stopped = true;
        poller.interrupt();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
