package io.courier.shuffle.reduce;

import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Polls the ApplicationMaster for map-completion events and hands each one to the scheduler, which adds
 * SUCCEEDED outputs, drops FAILED/KILLED/OBSOLETE attempts and gives up on TIPFAILED maps — what Hadoop's
 * package-private {@code EventFetcher} does, with the same batch size, 1 s poll and 10 retries 5 s apart.
 * Runs on one thread owned by {@link CourierShuffleConsumer}: {@link #start()} and {@link #stop()} from the
 * consumer's thread.
 */
final class MapCompletionPoller implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(MapCompletionPoller.class);
    static final long POLL_MILLIS = 1000;
    static final int MAX_RETRIES = 10;
    static final long RETRY_MILLIS = 5000;
    private static final int MAX_EVENTS_TO_FETCH = 10000;
    private static final int MIN_EVENTS_TO_FETCH = 100;
    private static final int MAX_RPC_OUTSTANDING_EVENTS = 3000000;

    private final TaskAttemptID reduce;
    private final TaskUmbilicalProtocol umbilical;
    private final ShuffleScheduler<?, ?> scheduler;
    private final ExceptionReporter errors;
    private final int maxEventsToFetch;
    private final Thread thread;
    private volatile boolean stopped;
    private int fromEventIdx;

    MapCompletionPoller(TaskAttemptID reduce, TaskUmbilicalProtocol umbilical, ShuffleScheduler<?, ?> scheduler,
            ExceptionReporter errors, int numReduces) {
        this.reduce = reduce;
        this.umbilical = umbilical;
        this.scheduler = scheduler;
        this.errors = errors;
        this.maxEventsToFetch = maxEventsToFetch(numReduces);
        this.thread = new Thread(this, "courier-map-events " + reduce);
        this.thread.setDaemon(true);
    }

    /** Hadoop's batch size: bounds the AM's reply size when many reducers poll at once. */
    static int maxEventsToFetch(int numReduces) {
        int perReducer = Math.max(MIN_EVENTS_TO_FETCH, MAX_RPC_OUTSTANDING_EVENTS / Math.max(1, numReduces));
        return Math.min(MAX_EVENTS_TO_FETCH, perReducer);
    }

    void start() {
        thread.start();
    }

    /** Stops polling and waits (bounded) for the thread to end. */
    void stop() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        int failures = 0;
        try {
            while (!stopped && !Thread.currentThread().isInterrupted()) {
                try {
                    int newMaps = pollOnce();
                    failures = 0;
                    if (newMaps > 0) {
                        LOG.info("{}: got {} new map outputs", reduce, newMaps);
                    }
                    Thread.sleep(POLL_MILLIS);
                } catch (IOException e) {
                    if (stopped) {
                        return;
                    }
                    LOG.info("{}: polling map-completion events failed ({} of {})", reduce, failures + 1,
                            MAX_RETRIES, e);
                    if (++failures >= MAX_RETRIES) {
                        throw new IOException("too many failures polling map-completion events for " + reduce
                                + " from the ApplicationMaster", e);
                    }
                    Thread.sleep(RETRY_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            // stop() or task shutdown
        } catch (Throwable t) {
            if (!stopped) {
                errors.reportException(t);
            }
        }
    }

    /** One poll: fetches batches until the AM has no more; returns the number of new successful maps. */
    int pollOnce() throws IOException, InterruptedException {
        int newMaps = 0;
        TaskCompletionEvent[] events;
        do {
            MapTaskCompletionEventsUpdate update = umbilical.getMapCompletionEvents((JobID) reduce.getJobID(),
                    fromEventIdx, maxEventsToFetch, (org.apache.hadoop.mapred.TaskAttemptID) reduce);
            events = update.getMapTaskCompletionEvents();
            fromEventIdx += events.length;
            for (TaskCompletionEvent event : events) {
                scheduler.resolve(event);
                if (event.getTaskStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
                    newMaps++;
                }
            }
        } while (events.length == maxEventsToFetch);
        return newMaps;
    }
}
