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

/**
 * Hadoop's {@link ShuffleSchedulerImpl} (penalties, fetch-failure reports to the ApplicationMaster, obsolete and
 * failed maps, Hadoop's shuffle counters), which also attributes each successful copy to the Courier path or
 * the HTTP fallback in the "Courier" counters. Hadoop's HTTP fetcher reports its copies here directly, which is
 * why the attribution lives in the scheduler. Thread-safe like its parent.
 */
final class CountingShuffleScheduler<K, V> extends ShuffleSchedulerImpl<K, V> {
    private final HostRoutes routes;
    private final Reporter reporter;

    CountingShuffleScheduler(JobConf job, TaskStatus status, TaskAttemptID reduceId, ExceptionReporter errors,
            Progress copyPhase, Counters.Counter shuffledMaps, Counters.Counter shuffleBytes,
            Counters.Counter failedShuffles, HostRoutes routes, Reporter reporter) {
        super(job, status, reduceId, errors, copyPhase, shuffledMaps, shuffleBytes, failedShuffles);
        this.routes = routes;
        this.reporter = reporter;
    }

    @Override
    public synchronized void copySucceeded(TaskAttemptID mapId, MapHost host, long bytes, long startMillis,
            long endMillis, MapOutput<K, V> output) throws IOException {
        super.copySucceeded(mapId, host, bytes, startMillis, endMillis, output);
        // A host is fetched by one worker at a time and switches to HTTP only between two of its copies, so
        // its route at this moment is the path this copy took.
        if (routes.isHttp(host.getHostName())) {
            reporter.incrCounter(CourierCounter.HTTP_FALLBACK_BYTES, bytes);
            reporter.incrCounter(CourierCounter.HTTP_FALLBACK_SEGMENTS, 1);
        } else {
            reporter.incrCounter(CourierCounter.PROXY_BYTES, bytes);
            reporter.incrCounter(CourierCounter.PROXY_SEGMENTS, 1);
        }
    }
}
