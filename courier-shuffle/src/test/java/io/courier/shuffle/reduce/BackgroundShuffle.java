package io.courier.shuffle.reduce;

import org.apache.hadoop.mapred.RawKeyValueIterator;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A shuffle running on its own thread while a test drives its sources; {@link #close()} stops the thread. One
 * test thread uses it.
 */
final class BackgroundShuffle implements AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    /** The merged result, or the shuffle's failure. */
    final Future<RawKeyValueIterator> result;

    BackgroundShuffle(Callable<RawKeyValueIterator> shuffle) {
        this.result = thread.submit(shuffle);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
