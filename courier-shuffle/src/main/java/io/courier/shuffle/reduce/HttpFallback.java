package io.courier.shuffle.reduce;

import org.apache.hadoop.mapreduce.task.reduce.MapHost;

import java.io.IOException;

/**
 * Fetches the known map outputs of one host over Hadoop's HTTP shuffle, reporting successes and failures to
 * the scheduler itself. One instance per fetch worker thread, used only by that thread; {@link #close()} may
 * be called by the owner from another thread to abort a transfer in progress.
 */
public interface HttpFallback extends AutoCloseable {
    /** Copies what the scheduler hands out for {@code host} ({@code getMapsForHost}); the caller frees the host. */
    void copyFromHost(MapHost host) throws IOException, InterruptedException;

    @Override
    void close();
}
