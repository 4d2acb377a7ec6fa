package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.IncomingSegment;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.Fetcher;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Copies the known map outputs of one host through the local Courier proxy, the way Hadoop's
 * {@code Fetcher.copyFromHost} does over HTTP: all the host's segments are requested at once, then each is
 * reserved in the merge manager and shuffled into it (the {@code MapOutput} verifies the IFile checksum), and
 * reported to the scheduler as a success or a failure with Hadoop's flags. A segment whose reserve says WAIT
 * stays open: only its credit window stops until memory frees up. Thread-safe: every fetch worker calls
 * {@link #copy} for the host it holds.
 */
final class HostCopier<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(HostCopier.class);
    private static final long MAX_RESERVE_BACKOFF_MILLIS = 200;

    /** How the Courier attempt at a host ended. */
    enum Outcome {
        /** Every segment was copied or reported as failed (failed maps are retried by the scheduler). */
        DONE,
        /** The host's proxy is unreachable: the caller fetches the host over HTTP (its maps were put back). */
        USE_HTTP,
        /** The local proxy or local disk failed: the maps were put back unblamed. */
        LOCAL_FAILURE
    }

    private enum Result { COPIED, FAILED, UNREACHABLE, LOCAL, RETRY, BACK_OFF }

    private final CountingShuffleScheduler<K, V> scheduler;
    private final MergeManager<K, V> merger;
    private final SegmentFetcher fetcher;
    private final HostRoutes routes;
    private final Reporter reporter;
    private final ShuffleClientMetrics metrics;
    private final ExceptionReporter errors;
    private final ReduceConfig config;
    private final String job;
    private final int partition;
    private final byte[] secret;
    private final String localProxy;
    private final WaitClock waits;
    private final AtomicInteger localFailuresInARow = new AtomicInteger();
    private final AtomicLong overloadBackOffs = new AtomicLong();
    private volatile String lastFailure;
    private long lastLocalFailureNanos; // guarded by this
    /** When the current run of local-proxy failures began. Guarded by this. */
    private long firstLocalFailureNanos;

    HostCopier(CountingShuffleScheduler<K, V> scheduler, MergeManager<K, V> merger, SegmentFetcher fetcher,
            HostRoutes routes, Reporter reporter, ShuffleClientMetrics metrics, ExceptionReporter errors,
            ReduceConfig config, TaskAttemptID reduceId, byte[] secret, String localProxy, WaitClock waits) {
        this.scheduler = scheduler;
        this.merger = merger;
        this.fetcher = fetcher;
        this.routes = routes;
        this.reporter = reporter;
        this.metrics = metrics;
        this.errors = errors;
        this.config = config;
        this.job = reduceId.getJobID().toString();
        this.partition = reduceId.getTaskID().getId();
        this.secret = secret.clone();
        this.localProxy = localProxy;
        this.waits = waits;
    }

    /**
     * Copies what the scheduler hands out for {@code host} (held BUSY by the caller, who frees it). With Hadoop's
     * fetch retry enabled, a source proxy that refuses connections or drops them mid-segment (its NodeManager
     * restarting) is retried here, every {@code fetch.retry.interval-ms}, for up to {@code fetch.retry.timeout-ms}
     * since the last progress, with its maps unblamed: what Hadoop's {@code Fetcher} does for a restarting
     * ShuffleHandler. Past that window the failure is handled as without retry. A local proxy that refuses the
     * reducer's connection for overload is waited for (its retry-after) with nothing counted against anyone, as
     * Hadoop's Fetcher penalises a host that answers 429, for as long as it keeps refusing.
     */
    Outcome copy(MapHost host, int fetcherId) throws InterruptedException {
        List<TaskAttemptID> maps = scheduler.getMapsForHost(host);
        if (maps.isEmpty()) {
            return Outcome.DONE;
        }
        Set<TaskAttemptID> remaining = new LinkedHashSet<>(maps);
        Set<TaskAttemptID> blamed = new LinkedHashSet<>();
        try {
            String source;
            try {
                source = routes.sourceProxy(host.getHostName());
            } catch (IllegalArgumentException e) {
                LOG.warn("Courier: no proxy address for map host {} ({}); fetching it over HTTP", host, e.getMessage());
                return Outcome.USE_HTTP;
            }
            long retryStart = 0;
            boolean retrying = false;
            while (true) {
                boolean mayRetry = config.fetchRetryEnabled() && (!retrying || System.nanoTime() - retryStart
                        < TimeUnit.MILLISECONDS.toNanos(config.fetchRetryTimeoutMillis()));
                int before = remaining.size();
                Round round = copyRound(host, source, remaining, blamed, fetcherId, mayRetry);
                if (round.backOffMillis > 0) {
                    backOff(host, round);
                    continue;
                }
                if (round.retryCause == null) {
                    return round.outcome;
                }
                if (!retrying || remaining.size() < before) {
                    retrying = true;
                    retryStart = System.nanoTime(); // the window counts from the last progress, as in Hadoop
                }
                reporter.incrCounter(CourierCounter.SOURCE_RETRIES, 1);
                LOG.warn("Courier: the source proxy {} of map host {} is unreachable or lost ({}); retrying {} maps"
                        + " of {} in {} ms (within {}={} ms)", source, host, round.retryCause.getMessage(),
                        remaining.size() - blamed.size(), job, config.fetchRetryIntervalMillis(),
                        ReduceConfig.FETCH_RETRY_TIMEOUT, config.fetchRetryTimeoutMillis());
                Thread.sleep(config.fetchRetryIntervalMillis());
            }
        } finally {
            for (TaskAttemptID map : remaining) {
                scheduler.putBackKnownMapOutput(host, map);
            }
        }
    }

    private void backOff(MapHost host, Round round) throws InterruptedException {
        long n = overloadBackOffs.incrementAndGet();
        reporter.incrCounter(CourierCounter.OVERLOAD_BACKOFFS, 1);
        if (Long.bitCount(n) == 1) { // every fetcher backs off each time: log the 1st, 2nd, 4th, ... only
            LOG.warn("Courier: {}; waiting {} ms before fetching from {} again, nothing counted as failed ({} back-offs"
                    + " so far)", round.retryCause.getMessage(), round.backOffMillis, host, n);
        }
        Thread.sleep(round.backOffMillis);
    }

    /** How one round of requests to a host ended: an outcome, a retryable source failure, or a back-off. */
    private static final class Round {
        final Outcome outcome;
        final IOException retryCause;
        final long backOffMillis;

        private Round(Outcome outcome, IOException retryCause, long backOffMillis) {
            this.outcome = outcome;
            this.retryCause = retryCause;
            this.backOffMillis = backOffMillis;
        }

        static Round of(Outcome o) {
            return new Round(o, null, 0);
        }

        static Round retry(IOException cause) {
            return new Round(null, cause, 0);
        }

        /** The local proxy refused for overload ({@code cause}): wait its retry-after, then the same round again. */
        static Round backOff(FetchException cause) {
            return new Round(null, cause, Math.max(1, cause.retryAfterMillis()));
        }
    }

    /**
     * Requests every map of {@code remaining} not yet {@code blamed} and copies them; copied maps leave
     * {@code remaining}, maps counted as failed join {@code blamed}. With {@code mayRetry}, a source failure that
     * a restart explains ({@link #restartable}) ends the round unblamed.
     */
    private Round copyRound(MapHost host, String source, Set<TaskAttemptID> remaining, Set<TaskAttemptID> blamed,
            int fetcherId, boolean mayRetry) throws InterruptedException {
        Map<TaskAttemptID, IncomingSegment> open = new LinkedHashMap<>();
        try {
            for (TaskAttemptID map : remaining) {
                if (blamed.contains(map)) {
                    continue;
                }
                try {
                    open.put(map, fetcher.fetch(source, job, map.toString(), partition, secret));
                } catch (IOException e) {
                    if (mayRetry && restartable(e)) {
                        return Round.retry(e);
                    }
                    Result r = failed(host, source, map, e);
                    if (r == Result.FAILED) {
                        blamed.add(map); // stays in remaining: put back, retried after the host's penalty
                        continue;
                    }
                    return Round.of(outcomeOf(r, host, source, e));
                }
            }
            for (Map.Entry<TaskAttemptID, IncomingSegment> e : open.entrySet()) {
                TaskAttemptID map = e.getKey();
                Attempt a = copyOne(host, source, map, e.getValue(), fetcherId, mayRetry);
                if (a.result == Result.COPIED) {
                    remaining.remove(map);
                    localFailuresInARow.set(0);
                    continue;
                }
                if (a.result == Result.FAILED) {
                    // Like Hadoop's Fetcher, a failed map is put back and retried after the penalty.
                    blamed.add(map);
                    continue;
                }
                if (a.result == Result.RETRY) {
                    return Round.retry(a.failure);
                }
                if (a.result == Result.BACK_OFF) {
                    return Round.backOff((FetchException) a.failure);
                }
                return Round.of(outcomeOf(a.result, host, source, a.failure));
            }
            return Round.of(Outcome.DONE);
        } finally {
            for (IncomingSegment s : open.values()) {
                s.close();
            }
        }
    }

    /**
     * True for a failure a restarting source node explains: its proxy refused the connection (PEER_UNREACHABLE
     * relayed by the local proxy) or the connection to it dropped or stalled mid-segment (PEER_LOST relayed). Not
     * the reducer's own connection to its local proxy, which is handled as a local failure.
     */
    private boolean restartable(IOException e) {
        FailureKind kind = fetcher.classify(e);
        return kind == FailureKind.SOURCE_UNREACHABLE || (kind == FailureKind.READ_ERROR
                && e instanceof FetchException && ((FetchException) e).code() == ErrorCode.PEER_LOST);
    }

    /** True for the local proxy's refusal at its connection cap (a {@link FetchException} with a retry-after). */
    private boolean overloaded(IOException e) {
        return fetcher.classify(e) == FailureKind.OVERLOADED && e instanceof FetchException;
    }

    private Outcome outcomeOf(Result r, MapHost host, String source, IOException failure)
            throws InterruptedException {
        if (r == Result.UNREACHABLE) {
            if (routes.markHttpOnly(host.getHostName())) {
                LOG.warn("Courier: the proxy {} of map host {} is unreachable ({}); fetching that host over HTTP"
                        + " from now on", source, host, failure == null ? "?" : failure.getMessage());
            }
            return Outcome.USE_HTTP;
        }
        // Result.LOCAL: the local proxy failed; fail the task once that happened too often in a row.
        if (failure != null) {
            int inARow = countLocalFailure();
            if (inARow > config.localProxyRetries() && !withinFetchRetry()) {
                errors.reportException(new IOException("reduce partition " + partition + " of " + job
                        + " lost its node's Courier proxy at " + localProxy + " " + inARow + " times in a row ("
                        + ReduceConfig.LOCAL_PROXY_RETRIES + "=" + config.localProxyRetries()
                        + (config.fetchRetryEnabled() ? ", and for longer than " + ReduceConfig.FETCH_RETRY_TIMEOUT
                        + "=" + config.fetchRetryTimeoutMillis() + " ms" : "") + "); last failure fetching from "
                        + host + " via " + source, failure));
            } else {
                LOG.warn("Courier: the local proxy {} failed while fetching from {} ({} of {} allowed in a row);"
                        + " retrying", localProxy, host, inARow, config.localProxyRetries(), failure);
                Thread.sleep(config.localProxyRetryIntervalMillis());
            }
        }
        return Outcome.LOCAL_FAILURE;
    }

    /**
     * Whether Hadoop's fetch retry ({@code mapreduce.reduce.shuffle.fetch.retry.*}, on by default where the
     * NodeManager recovers) still covers the current run of local-proxy failures: a work-preserving restart of this
     * node's NodeManager takes its proxy away for longer than the few local retries, and stock reducers ride it out
     * for the fetch retry timeout, so Courier's do too.
     */
    private synchronized boolean withinFetchRetry() {
        return config.fetchRetryEnabled() && System.nanoTime() - firstLocalFailureNanos
                < TimeUnit.MILLISECONDS.toNanos(config.fetchRetryTimeoutMillis());
    }

    /**
     * Counts a local-proxy failure unless one was counted less than a retry interval ago: losing the local
     * connection fails the open streams of every worker at once, and that is one failure, not one per worker.
     */
    private synchronized int countLocalFailure() {
        long now = System.nanoTime();
        if (localFailuresInARow.get() == 0 || now - lastLocalFailureNanos
                >= TimeUnit.MILLISECONDS.toNanos(config.localProxyRetryIntervalMillis())) {
            if (localFailuresInARow.get() == 0) {
                firstLocalFailureNanos = now;
            }
            lastLocalFailureNanos = now;
            return localFailuresInARow.incrementAndGet();
        }
        return localFailuresInARow.get();
    }

    /** The result of one segment, with the failure behind a non-copied result. */
    private static final class Attempt {
        final Result result;
        final IOException failure;

        Attempt(Result result, IOException failure) {
            this.result = result;
            this.failure = failure;
        }
    }

    private Attempt copyOne(MapHost host, String source, TaskAttemptID map, IncomingSegment segment, int fetcherId,
            boolean mayRetry) throws InterruptedException {
        SegmentHeader header;
        long t = System.nanoTime();
        try {
            header = segment.awaitHeader(config.headerTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            // The local proxy refuses a task at the handshake, before any fetch: its refusal fails the segment here.
            if (overloaded(e)) {
                return new Attempt(Result.BACK_OFF, e);
            }
            if (mayRetry && restartable(e)) {
                return new Attempt(Result.RETRY, e);
            }
            return new Attempt(failed(host, source, map, e), e);
        } finally {
            waits.add(System.nanoTime() - t);
        }
        String wrong = checkHeader(header, map);
        if (wrong != null) {
            IOException e = new IOException("Courier: bad segment header for map " + map + " of " + job + " from "
                    + host + " via " + source + ": " + wrong + " (" + header + ")");
            return new Attempt(readError(host, source, map, e, wrong.startsWith("reduce") ? "WRONG_REDUCE"
                    : "WRONG_LENGTH"), e);
        }
        MapOutput<K, V> output;
        try {
            output = reserve(map, header.rawLength(), fetcherId);
        } catch (IOException e) {
            if (e instanceof InterruptedIOException || Thread.currentThread().isInterrupted()) {
                // The task is closing and its interrupt hit the reserve (Hadoop sets the new temporary file's
                // permissions with a chmod subprocess): no disk error, so nothing to report.
                Thread.currentThread().interrupt();
                throw new InterruptedException("interrupted reserving map " + map + " of " + job + ": " + e);
            }
            // Like Hadoop's Fetcher: a local disk/memory error fails the reduce task.
            scheduler.reportLocalError(e);
            return new Attempt(Result.LOCAL, null);
        }
        if (Thread.currentThread().isInterrupted()) {
            // Interrupted during the reserve but not thrown (or the interrupt was swallowed inside Hadoop's Shell,
            // in which case the workers' stop flag still ends the next round): give the reservation back now.
            output.abort();
            throw new InterruptedException("interrupted after reserving map " + map + " of " + job);
        }
        long start = System.currentTimeMillis();
        boolean local = segment instanceof LocalSegment; // read from this node's files, not through the proxy
        try {
            InputStream in = waits.timed(segment.data(config.readTimeoutMillis(), TimeUnit.MILLISECONDS));
            output.shuffle(host, in, header.compressedLength(), header.rawLength(), metrics, reporter);
            // Hadoop's Fetcher fails a map whose payload disagrees with its header; the IFile checksum covers the
            // announced bytes only, so wait for the stream's end before committing: extra bytes are a read error.
            if (in.read() != -1) {
                throw new IOException("Courier: " + source + " sent more than the " + header.compressedLength()
                        + " bytes its header announced for map " + map + " of " + job);
            }
            if (local) {
                scheduler.copySucceededLocally(map, host, header.compressedLength(), start, System.currentTimeMillis(),
                        output);
            } else {
                scheduler.copySucceeded(map, host, header.compressedLength(), start, System.currentTimeMillis(),
                        output);
            }
        } catch (IOException | InternalError e) {
            output.abort();
            if (e instanceof InterruptedIOException || Thread.currentThread().isInterrupted()) {
                // The task is closing (FetchWorkers.stop interrupts a read that may be stuck): no fault of the
                // source, so no read error; the map goes back unblamed and the worker ends.
                Thread.currentThread().interrupt();
                throw new InterruptedException("interrupted copying map " + map + " of " + job + " from " + host);
            }
            IOException io = e instanceof IOException ? (IOException) e
                    : new IOException("decompressing map " + map + " failed", e);
            if (mayRetry && restartable(io)) {
                return new Attempt(Result.RETRY, io);
            }
            return new Attempt(failed(host, source, map, io), io);
        }
        metrics.successFetch();
        if (!local) {
            routes.served(source);
        }
        return new Attempt(Result.COPIED, null);
    }

    private String checkHeader(SegmentHeader h, TaskAttemptID map) {
        if (h.partition() != partition) {
            return "reduce " + h.partition() + " instead of " + partition;
        }
        if (!map.toString().equals(h.mapAttempt())) {
            return "length check: map " + h.mapAttempt() + " instead of " + map;
        }
        if (h.compressedLength() < 0 || h.rawLength() < 0) {
            return "length check: negative length";
        }
        return null;
    }

    /** Reserves merge memory or disk; a WAIT keeps the segment open and retries once merges free memory. */
    private MapOutput<K, V> reserve(TaskAttemptID map, long rawLength, int fetcherId)
            throws IOException, InterruptedException {
        MapOutput<K, V> output = merger.reserve(map, rawLength, fetcherId);
        if (output != null) {
            return output;
        }
        long t = System.nanoTime();
        long backoff = 5;
        try {
            while (output == null) {
                merger.waitForResource();
                // MergeManager has no "memory freed" signal; commits of other segments and merges free it.
                Thread.sleep(backoff);
                backoff = Math.min(MAX_RESERVE_BACKOFF_MILLIS, backoff * 2);
                output = merger.reserve(map, rawLength, fetcherId);
            }
            return output;
        } finally {
            waits.add(System.nanoTime() - t);
        }
    }

    private Result failed(MapHost host, String source, TaskAttemptID map, IOException e) {
        switch (fetcher.classify(e)) {
            case SOURCE_UNREACHABLE:
                return Result.UNREACHABLE;
            case LOCAL_PROXY:
            case OVERLOADED: // where no refusal is expected (see copyOne): still no one's fault
                return Result.LOCAL;
            default:
                readError(host, source, map, e, "IO_ERROR");
                return Result.FAILED;
        }
    }

    /** The last failed copy (map, host, proxy, cause), for the task's failure message; null if none. */
    String lastFailure() {
        return lastFailure;
    }

    /** Hadoop's reaction to a map that could not be read from a host it could connect to. */
    private Result readError(MapHost host, String source, TaskAttemptID map, IOException e, String shuffleError) {
        lastFailure = "map " + map + " from " + host + " via proxy " + source + ": " + e.getMessage();
        LOG.warn("Courier: failed to copy map {} of {} for reduce {} from {} via proxy {}", map, job, partition, host,
                source, e);
        reporter.incrCounter(Fetcher.SHUFFLE_ERR_GRP_NAME, shuffleError, 1);
        metrics.failedFetch();
        scheduler.hostFailed(host.getHostName());
        scheduler.copyFailed(map, host, true, false);
        return Result.FAILED;
    }
}
