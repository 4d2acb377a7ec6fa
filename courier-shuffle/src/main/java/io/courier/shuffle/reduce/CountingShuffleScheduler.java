package io.courier.shuffle.reduce;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;
import org.apache.hadoop.util.Progress;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Hadoop's {@link ShuffleSchedulerImpl} (penalties, fetch-failure reports to the ApplicationMaster, obsolete and
 * failed maps, Hadoop's shuffle counters), which also attributes each successful copy to the Courier path or
 * the HTTP fallback in the "Courier" counters. Hadoop's HTTP fetcher reports its copies here directly, which is
 * why the attribution lives in the scheduler. It also tells the fetch workers how many distinct hosts have map
 * outputs, so that no more workers start than there are hosts to fetch from. Thread-safe like its parent.
 */
final class CountingShuffleScheduler<K, V> extends ShuffleSchedulerImpl<K, V> {
    private final HostRoutes routes;
    private final Reporter reporter;
    /** Guarded by this: the hosts that ever had a map output for this reducer, and who hears of a new one. */
    private final Set<String> hosts = new HashSet<>();
    private IntConsumer onHostsKnown = n -> { };
    /** Guarded by this: set while {@link #copySucceededLocally} runs the parent's bookkeeping. */
    private boolean copyingLocally;

    CountingShuffleScheduler(JobConf job, TaskStatus status, TaskAttemptID reduceId, ExceptionReporter errors,
            Progress copyPhase, Counters.Counter shuffledMaps, Counters.Counter shuffleBytes,
            Counters.Counter failedShuffles, HostRoutes routes, Reporter reporter) {
        super(job, status, reduceId, errors, copyPhase, shuffledMaps, shuffleBytes, failedShuffles);
        this.routes = routes;
        this.reporter = reporter;
    }

    /**
     * Tells {@code listener} the number of distinct hosts known now, then again each time a new host becomes known
     * (under this scheduler's monitor: the listener must not block). Any thread.
     */
    synchronized void onHostsKnown(IntConsumer listener) {
        onHostsKnown = listener;
        listener.accept(hosts.size());
    }

    @Override
    public synchronized void addKnownMapOutput(String hostName, String hostUrl, TaskAttemptID mapId) {
        super.addKnownMapOutput(hostName, hostUrl, mapId);
        if (hosts.add(hostName)) {
            onHostsKnown.accept(hosts.size());
        }
    }

    /** {@link #copySucceeded} of a segment read from a node-local map output instead of through the proxy. */
    synchronized void copySucceededLocally(TaskAttemptID mapId, MapHost host, long bytes, long startMillis,
            long endMillis, MapOutput<K, V> output) throws IOException {
        copyingLocally = true;
        try {
            copySucceeded(mapId, host, bytes, startMillis, endMillis, output);
        } finally {
            copyingLocally = false;
        }
    }

    @Override
    public synchronized void copySucceeded(TaskAttemptID mapId, MapHost host, long bytes, long startMillis,
            long endMillis, MapOutput<K, V> output) throws IOException {
        super.copySucceeded(mapId, host, bytes, startMillis, endMillis, output);
        // A host is fetched by one worker at a time and switches to HTTP only between two of its copies, so
        // its route at this moment is the path this copy took.
        if (copyingLocally) {
            reporter.incrCounter(CourierCounter.LOCAL_BYTES, bytes);
            reporter.incrCounter(CourierCounter.LOCAL_SEGMENTS, 1);
        } else if (routes.isHttp(host.getHostName())) {
            reporter.incrCounter(CourierCounter.HTTP_FALLBACK_BYTES, bytes);
            reporter.incrCounter(CourierCounter.HTTP_FALLBACK_SEGMENTS, 1);
        } else {
            reporter.incrCounter(CourierCounter.PROXY_BYTES, bytes);
            reporter.incrCounter(CourierCounter.PROXY_SEGMENTS, 1);
        }
    }
}
