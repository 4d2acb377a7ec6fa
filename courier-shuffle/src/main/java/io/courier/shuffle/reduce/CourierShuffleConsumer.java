package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.relay.LocalProxyClient;
import io.courier.shuffle.proxy.relay.RelayClientConfig;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.SecretKey;
import java.io.IOException;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Courier's reduce-side shuffle ({@code mapreduce.job.reduce.shuffle.consumer.plugin.class}): fetches every map
 * output of this reduce partition from another node through the node's local Courier proxy, reads those of maps
 * that ran on this node from their files ({@link NodeLocalFirstFetcher}), and hands the segments, byte-identical
 * to what ShuffleHandler serves, to Hadoop's {@link MergeManagerImpl}. Bookkeeping and failure semantics are
 * Hadoop's own {@link ShuffleSchedulerImpl} (penalties, fetch-failure reports so the ApplicationMaster re-runs
 * lost maps, obsolete and failed attempts). Nodes whose proxy cannot be reached, and every node when this
 * node runs no Courier proxy, are fetched with Hadoop's HTTP {@code Fetcher}. Local (uber) runs delegate to
 * Hadoop's {@link Shuffle}.
 *
 * <p>Threads: {@code ReduceTask} calls {@link #init}, {@link #run} and {@link #close} on the task's main
 * thread. {@link #run} starts one map-completion poller and up to {@code courier.reduce.hosts.parallel} fetch
 * workers, one per host with map outputs as the poller learns of them, and stops them before it returns or
 * throws; {@link #close} stops whatever is still running.
 * {@link #reportException} may be called from any thread.
 */
public class CourierShuffleConsumer<K, V> implements ShuffleConsumerPlugin<K, V>, ExceptionReporter {
    private static final Logger LOG = LoggerFactory.getLogger(CourierShuffleConsumer.class);
    private static final int PROGRESS_MILLIS = 2000;

    private Context<K, V> context;
    private TaskAttemptID reduceId;
    private JobConf jobConf;
    private Reporter reporter;
    private ReduceConfig config;
    private boolean nodeLocalReads;
    private ShuffleClientMetrics metrics;
    private LocalProxyEndpoint localProxy;
    private HostRoutes routes;
    private CountingShuffleScheduler<K, V> scheduler;
    private MergeManager<K, V> merger;
    private Shuffle<K, V> localRun;

    private SegmentFetcher fetcher;
    private MapCompletionPoller poller;
    private volatile FetchWorkers<K, V> workers;
    private volatile HostCopier<K, V> copier;
    private final WaitClock waits = new WaitClock();
    private volatile boolean closed;
    /** The job asked for an encrypted shuffle, which only Hadoop's HTTPS fetcher gives. */
    private boolean sslOnly;
    private Throwable failure;
    private String failingThread;

    @Override
    public void init(Context<K, V> context) {
        this.context = context;
        this.reduceId = context.getReduceId();
        this.jobConf = context.getJobConf();
        this.reporter = context.getReporter();
        if (context.getLocalMapFiles() != null) {
            // Uber/local runs read map outputs from local files with Hadoop's package-private LocalFetcher.
            LOG.info("Courier: {} runs with local map files; using Hadoop's shuffle", reduceId);
            localRun = new Shuffle<>();
            localRun.init(context);
            return;
        }
        this.config = ReduceConfig.from(jobConf);
        this.nodeLocalReads = ReduceConfig.nodeLocalReads(jobConf);
        this.metrics = ShuffleClientMetrics.create(reduceId, jobConf);
        LocalProxyEndpoint endpoint = LocalProxyEndpoint.fromEnvironment(environment());
        if (endpoint != null && jobConf.getBoolean(MRConfig.SHUFFLE_SSL_ENABLED_KEY,
                MRConfig.SHUFFLE_SSL_ENABLED_DEFAULT)) {
            // The proxy path has no TLS: never downgrade a job that asked for an encrypted shuffle.
            LOG.warn("Courier: {} is true and Courier's proxy connections are not encrypted; {} fetches every map"
                    + " output with Hadoop's HTTPS fetcher", MRConfig.SHUFFLE_SSL_ENABLED_KEY, reduceId);
            endpoint = null;
            sslOnly = true;
        }
        this.localProxy = endpoint;
        this.routes = new HostRoutes(localProxy == null ? null : localProxy.metadata().rule());
        this.scheduler = new CountingShuffleScheduler<>(jobConf, context.getStatus(), reduceId, this,
                context.getCopyPhase(), context.getShuffledMapsCounter(), context.getReduceShuffleBytes(),
                context.getFailedShuffleCounter(), routes, reporter);
        try {
            this.merger = createMergeManager(context);
        } catch (RuntimeException | Error e) {
            closeSchedulerQuietly();
            throw e;
        }
        if (localProxy == null) {
            if (!sslOnly) {
                LOG.warn("Courier: the NodeManager of {} runs no Courier proxy (no Courier metadata in {}); fetching"
                        + " every map output over HTTP", reduceId,
                        "NM_AUX_SERVICE_" + LocalProxyEndpoint.SHUFFLE_SERVICE);
            }
        } else {
            LOG.info("Courier shuffle active for {}: local proxy {}, remote proxies at {}, {}", reduceId,
                    localProxy.address(), localProxy.metadata().rule(), config);
        }
    }

    /** The merge manager; like {@code Shuffle.createMergeManager}, overridable. */
    protected MergeManager<K, V> createMergeManager(Context<K, V> context) {
        return new MergeManagerImpl<>(reduceId, jobConf, context.getLocalFS(), context.getLocalDirAllocator(),
                reporter, context.getCodec(), context.getCombinerClass(), context.getCombineCollector(),
                context.getSpilledRecordsCounter(), context.getReduceCombineInputCounter(),
                context.getMergedMapOutputsCounter(), this, context.getMergePhase(), context.getMapOutputFile());
    }

    /** The container environment (the NodeManager's metadata and host name). */
    protected Map<String, String> environment() {
        return System.getenv();
    }

    /**
     * Connects to this node's Courier proxy at {@code host:port}; called once per attempt of {@link #run}'s
     * bounded retry loop. Tests override it with in-process proxies.
     */
    protected SegmentFetcher connectLocalProxy(String host, int port, ReduceConfig config) throws IOException {
        LocalProxyClient client = LocalProxyClient.connect(host, port, localProxy.metadata().relaySocket(),
                RelayClientConfig.defaults().withStreamWindow(config.streamWindow())
                        .withHeaderTimeoutMillis(config.headerTimeoutMillis())
                        .withReadTimeoutMillis(config.readTimeoutMillis()), String.valueOf(reduceId));
        LOG.info("Courier: {} reaches its local proxy {} over {}", reduceId, client.localProxy(), client.via());
        return new RelaySegmentFetcher(client);
    }

    /** Hadoop's HTTP fetcher for one fetch worker; called on that worker's thread, at most once per worker. */
    protected HttpFallback createHttpFallback(ShuffleSchedulerImpl<K, V> scheduler, MergeManager<K, V> merger,
            ShuffleClientMetrics metrics) {
        SecretKey secret = context.getReduceTask().getShuffleSecret();
        return new HadoopHttpFallback<>(jobConf, reduceId, scheduler, merger, reporter, metrics, this, secret);
    }

    @Override
    public RawKeyValueIterator run() throws IOException, InterruptedException {
        if (localRun != null) {
            return localRun.run();
        }
        boolean done = false;
        try {
            startThreads();
            while (!scheduler.waitUntilDone(PROGRESS_MILLIS)) {
                reporter.progress();
                throwIfFailed();
                if (closed) {
                    throw new IOException("Courier shuffle of " + reduceId + " was closed before it finished");
                }
            }
            done = true;
        } finally {
            stopThreads();
            if (!done) {
                closeScheduler();
            }
        }
        closeScheduler();
        publishCounters();
        Progress copyPhase = context.getCopyPhase();
        copyPhase.complete();
        TaskStatus status = context.getStatus();
        status.setPhase(TaskStatus.Phase.SORT);
        Task task = context.getReduceTask();
        TaskUmbilicalProtocol umbilical = context.getUmbilical();
        task.statusUpdate(umbilical);
        RawKeyValueIterator kv;
        try {
            kv = merger.close();
        } catch (Throwable t) {
            throw new IOException("final merge of " + reduceId + " failed", t);
        }
        throwIfFailed();
        return kv;
    }

    private void startThreads() throws IOException, InterruptedException {
        // Map events first: the poller's RPCs then overlap the connection to the local proxy, whose cold start
        // (Netty in a fresh task JVM) takes most of a second (docs/benchmarks.md, TeraSort on the mini cluster).
        poller = new MapCompletionPoller(reduceId, context.getUmbilical(), scheduler, this,
                jobConf.getNumReduceTasks());
        poller.start();
        HostCopier<K, V> viaProxy = null;
        int count;
        if (localProxy != null) {
            fetcher = connectWithRetries();
            NodeLocalOutputs local = nodeLocalReads ? NodeLocalOutputs.of(jobConf, reduceId.getJobID().toString(),
                    UserGroupInformation.getCurrentUser().getShortUserName()) : null;
            if (local != null) {
                fetcher = new NodeLocalFirstFetcher(fetcher, localProxy.address(), local);
            }
            viaProxy = new HostCopier<>(scheduler, merger, fetcher, routes, reporter, metrics, this, config, reduceId,
                    context.getReduceTask().getShuffleSecret().getEncoded(), localProxy.address(), waits);
            copier = viaProxy;
            count = config.hostsParallel();
        } else {
            count = jobConf.getInt(MRJobConfig.SHUFFLE_PARALLEL_COPIES, 5);
        }
        workers = new FetchWorkers<>(count, reduceId.toString(), scheduler, merger, routes, viaProxy,
                () -> createHttpFallback(scheduler, merger, metrics), this, metrics);
        // Workers start as hosts with map outputs become known (those the poller has already announced: now).
        scheduler.onHostsKnown(workers::hostsKnown);
    }

    /**
     * Connects to the node's proxy: {@code courier.reduce.local-proxy.retries} more attempts after the first, and
     * with Hadoop's fetch retry on, as many more as fit in its timeout (a NodeManager restarting with recovery
     * takes its proxy away for that long, and stock reducers wait it out).
     */
    private SegmentFetcher connectWithRetries() throws IOException, InterruptedException {
        IOException last = null;
        int attempts = config.localProxyRetries() + 1;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.fetchRetryTimeoutMillis());
        int i = 0;
        while (true) {
            i++;
            try {
                return connectLocalProxy(localProxy.host(), localProxy.port(), config);
            } catch (IOException e) {
                last = e;
                boolean retrying = config.fetchRetryEnabled() && System.nanoTime() < deadline;
                LOG.warn("Courier: {} cannot connect to its node's proxy {} (attempt {} of {}{})", reduceId,
                        localProxy.address(), i, attempts, retrying && i >= attempts ? ", retrying within "
                        + ReduceConfig.FETCH_RETRY_TIMEOUT : "", e);
                if (i >= attempts && !retrying) {
                    break;
                }
                Thread.sleep(config.localProxyRetryIntervalMillis());
            }
        }
        throw new IOException("reduce " + reduceId + " cannot use its node's Courier proxy at "
                + localProxy.address() + " after " + i + " attempts (" + ReduceConfig.LOCAL_PROXY_RETRIES + "="
                + config.localProxyRetries() + (config.fetchRetryEnabled() ? ", " + ReduceConfig.FETCH_RETRY_TIMEOUT
                + "=" + config.fetchRetryTimeoutMillis() + " ms" : "") + "): "
                + (last == null ? "" : last.getMessage()), last);
    }

    private synchronized void throwIfFailed() throws IOException {
        if (failure != null) {
            HostCopier<K, V> c = copier;
            String last = c == null ? null : c.lastFailure();
            throw new IOException("Courier shuffle of " + reduceId + " (job " + reduceId.getJobID() + ") failed in "
                    + failingThread + ": " + failure.getMessage()
                    + (last == null ? "" : "; last failed Courier copy: " + last), failure);
        }
    }

    /** Fetch workers started by {@link #run} so far (tests). Any thread. */
    int fetchWorkersStarted() {
        FetchWorkers<K, V> w = workers;
        return w == null ? 0 : w.started();
    }

    private void stopThreads() {
        if (poller != null) {
            poller.stop();
        }
        if (workers != null) {
            workers.stop();
        }
        if (fetcher != null) {
            fetcher.close();
        }
    }

    private void closeScheduler() throws InterruptedException {
        if (scheduler != null) {
            scheduler.close();
        }
    }

    private void closeSchedulerQuietly() {
        try {
            closeScheduler();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void publishCounters() {
        OptionalLong connections = fetcher == null ? OptionalLong.empty() : fetcher.servingConnections();
        reporter.incrCounter(CourierCounter.PROXY_CONNECTIONS,
                connections.isPresent() ? connections.getAsLong() : routes.servingProxies());
        reporter.incrCounter(CourierCounter.WAIT_MILLIS, waits.millis());
    }

    /** First error wins; wakes {@link #run}'s wait so the task fails promptly. */
    @Override
    public void reportException(Throwable t) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = t;
            failingThread = Thread.currentThread().getName();
        }
        if (scheduler != null) {
            synchronized (scheduler) {
                scheduler.notifyAll();
            }
        }
    }

    @Override
    public void close() {
        if (localRun != null) {
            localRun.close();
            return;
        }
        closed = true;
        stopThreads();
        closeSchedulerQuietly();
        if (scheduler != null) {
            synchronized (scheduler) {
                scheduler.notifyAll();
            }
        }
    }
}
