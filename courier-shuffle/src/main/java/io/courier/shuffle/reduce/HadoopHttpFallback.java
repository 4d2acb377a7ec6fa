package io.courier.shuffle.reduce;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.Fetcher;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;

import javax.crypto.SecretKey;
import java.io.IOException;

/**
 * Hadoop's own HTTP {@link Fetcher}, used as a library: its protected {@code copyFromHost} runs on the calling
 * fetch worker, so connects, retries, header checks, "Shuffle Errors" counters, {@code hostFailed}/{@code copyFailed}
 * reports (and through them the ApplicationMaster's decision to re-run lost maps) are exactly stock Hadoop's.
 * The Fetcher is never started as a thread and {@code run()} is not overridden (Hadoop 3.5 makes it final).
 */
public final class HadoopHttpFallback<K, V> implements HttpFallback {
    private final Library<K, V> fetcher;

    public HadoopHttpFallback(JobConf conf, TaskAttemptID reduceId, ShuffleSchedulerImpl<K, V> scheduler,
            MergeManager<K, V> merger, Reporter reporter, ShuffleClientMetrics metrics, ExceptionReporter errors,
            SecretKey shuffleSecret) {
        this.fetcher = new Library<>(conf, reduceId, scheduler, merger, reporter, metrics, errors, shuffleSecret);
    }

    @Override
    public void copyFromHost(MapHost host) throws IOException {
        fetcher.copy(host);
    }

    /** Closes an open HTTP connection, which makes a copy in progress on the worker fail fast. */
    @Override
    public void close() {
        fetcher.abort();
    }

    /** Opens the protected methods this class needs; adds no behaviour. */
    private static final class Library<K, V> extends Fetcher<K, V> {
        Library(JobConf conf, TaskAttemptID reduceId, ShuffleSchedulerImpl<K, V> scheduler, MergeManager<K, V> merger,
                Reporter reporter, ShuffleClientMetrics metrics, ExceptionReporter errors, SecretKey secret) {
            super(conf, reduceId, scheduler, merger, reporter, metrics, errors, secret);
        }

        void copy(MapHost host) throws IOException {
            copyFromHost(host);
        }

        void abort() {
            closeConnection();
        }
    }
}
