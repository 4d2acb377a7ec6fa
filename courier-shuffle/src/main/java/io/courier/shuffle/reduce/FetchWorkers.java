package io.courier.shuffle.reduce;

import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A bounded set of fetch worker threads, each doing what Hadoop's {@code Fetcher.run()} does: wait for merge
 * resources, take a host from the scheduler, copy its maps (through the Courier proxy, or over HTTP when the
 * host is HTTP-only), free the host. A worker that finds a host's proxy unreachable fetches that host over HTTP
 * right away.
 *
 * <p>Workers start lazily, one per host with work up to the bound: a worker only ever copies from one host at a
 * time, so more workers than known hosts would only wait in the scheduler, and every idle waiter is woken by each
 * of the scheduler's {@code notifyAll}s (a new map output, a freed host, a copy done). Starting the bound's worth
 * up front cost about a millisecond of CPU per idle thread per reducer in the emulated-network benchmark.
 *
 * <p>Threads: {@link #hostsKnown} from whichever thread tells the scheduler of a new host (the map-completion
 * poller, under the scheduler's monitor); {@link #stop()} from {@link CourierShuffleConsumer}'s thread.
 */
final class FetchWorkers<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(FetchWorkers.class);

    private final ShuffleSchedulerImpl<K, V> scheduler;
    private final MergeManager<K, V> merger;
    private final HostRoutes routes;
    private final HostCopier<K, V> copier;
    private final Supplier<HttpFallback> fallbacks;
    private final ExceptionReporter errors;
    private final ShuffleClientMetrics metrics;
    private final int bound;
    private final String reduce;
    /** Guarded by itself, like {@link #stopped}'s transitions: started threads, in order. */
    private final List<Thread> threads = new ArrayList<>();
    private final List<HttpFallback> openFallbacks = new ArrayList<>();
    private volatile boolean stopped;

    /**
     * @param bound  the most workers ever started (at least 1)
     * @param copier the Courier path, or null when every host is fetched over HTTP
     */
    FetchWorkers(int bound, String reduce, ShuffleSchedulerImpl<K, V> scheduler, MergeManager<K, V> merger,
            HostRoutes routes, HostCopier<K, V> copier, Supplier<HttpFallback> fallbacks, ExceptionReporter errors,
            ShuffleClientMetrics metrics) {
        this.scheduler = scheduler;
        this.merger = merger;
        this.routes = routes;
        this.copier = copier;
        this.fallbacks = fallbacks;
        this.errors = errors;
        this.metrics = metrics;
        this.bound = Math.max(1, bound);
        this.reduce = reduce;
    }

    /**
     * The scheduler now knows {@code hosts} distinct hosts with map outputs: starts workers until there are as many
     * as hosts, up to the bound. Does nothing once {@link #stop()} has begun. Any thread; never blocks.
     */
    void hostsKnown(int hosts) {
        synchronized (threads) {
            int want = Math.min(bound, hosts);
            while (!stopped && threads.size() < want) {
                final int id = threads.size();
                Thread t = new Thread(() -> work(id), "courier-fetch#" + id + " " + reduce);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }
    }

    /** Workers started so far. Any thread. */
    int started() {
        synchronized (threads) {
            return threads.size();
        }
    }

    /** Stops every worker (interrupting transfers in progress) and waits, bounded, for them to end. */
    void stop() {
        List<Thread> started;
        synchronized (threads) {
            // Under the lock, so no worker starts after this: hostsKnown checks stopped under the same lock.
            stopped = true;
            started = new ArrayList<>(threads);
        }
        // Interrupts and joins outside the lock: hostsKnown is called under the scheduler's monitor, which a
        // stopping worker may need (freeHost) before it can end.
        for (Thread t : started) {
            t.interrupt();
        }
        synchronized (openFallbacks) {
            for (HttpFallback f : openFallbacks) {
                f.close();
            }
        }
        for (Thread t : started) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) {
                LOG.warn("{} did not stop within 5 s", t.getName());
            }
        }
    }

    private void work(int id) {
        HttpFallback http = null;
        try {
            while (!stopped && !Thread.currentThread().isInterrupted()) {
                MapHost host = null;
                try {
                    merger.waitForResource();
                    host = scheduler.getHost();
                    metrics.threadBusy();
                    if (stopped || Thread.currentThread().isInterrupted()) {
                        // stop() has begun: getHost() does not check for it, and the host may be one a worker just
                        // gave back because stop() interrupted its copy. Copying it now would start a new transfer
                        // and temporary map output after stop(), whose interrupt Hadoop can lose (Shell.joinThread
                        // swallows it while reserve() runs chmod): the worker then outlives stop() blocked in a read,
                        // and its temporary file stays on disk. The finally block gives the host back.
                        break;
                    }
                    boolean viaHttp = copier == null || routes.isHttp(host.getHostName());
                    if (!viaHttp) {
                        viaHttp = copier.copy(host, id) == HostCopier.Outcome.USE_HTTP;
                    }
                    if (viaHttp && !stopped) {
                        if (http == null) {
                            http = newFallback();
                        }
                        http.copyFromHost(host);
                    }
                } finally {
                    if (host != null) {
                        scheduler.freeHost(host);
                        metrics.threadFree();
                    }
                }
            }
        } catch (InterruptedException e) {
            // stop()
        } catch (Throwable t) {
            if (!stopped) {
                errors.reportException(t);
            }
        } finally {
            if (http != null) {
                http.close();
            }
        }
    }

    private HttpFallback newFallback() {
        HttpFallback f = fallbacks.get();
        synchronized (openFallbacks) {
            openFallbacks.add(f);
            if (stopped) {
                f.close();
            }
        }
        return f;
    }
}
