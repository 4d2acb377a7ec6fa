package io.courier.demo;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.courier.coordinator.client.Mode;
import io.courier.it.MiniCourierCluster;
import io.courier.shuffle.coordination.ProxyCoordination;
import io.courier.shuffle.proxy.relay.RelayStats;
import io.courier.shuffle.nm.CourierShuffleHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches concurrent jobs every {@code periodMillis} and the NodeManagers' proxies ten times as often (but not more
 * often than every 10 ms) on its own two threads ({@code progress-monitor}, stopped by {@link #close()}; each kind of
 * sample runs on one of them at a time, results under the monitor's lock): the longest stretch in which some job
 * was running and none made progress (map + reduce progress as the ApplicationMaster reports it) — the job stall; the longest
 * stretch in which some reducer had a segment stream open at its proxy and no proxy relayed a byte — the shuffle
 * stall; and how long the proxies spent in each coordination mode. Started and closed by one thread; the results
 * are read after close.
 *
 * <p>Why two stalls: the job stall includes everything YARN does between progress reports (TeraSort's client
 * sampling its input, ApplicationMasters waiting for containers, a reducer's progress moving only when a whole
 * map output has arrived), which varies by tens of seconds from run to run on a loaded host. The shuffle stall is
 * what a coordinator outage could cause — a fetch waiting for a decision — and nothing else. The proxies are read
 * more often than the jobs because reading them is a few field reads while a job's progress is an RPC, and because
 * a small shuffle's streams can open and close between two job samples: at 250 ms a CI run once saw none of them.
 */
final class ProgressMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressMonitor.class);

    private final List<BackgroundTeraSort> jobs;
    private final MiniCourierCluster cluster;
    private final ScheduledExecutorService thread;
    private final float[] last;
    private final Map<Mode, Long> modeSamples = new EnumMap<>(Mode.class);
    private long lastProgressNanos = System.nanoTime();
    private long longestStallMillis;
    private long longestStallEndedAtMillis;
    private long lastRelayed = -1;
    private long lastShuffleProgressNanos = System.nanoTime();
    private long longestShuffleStallMillis;
    private long relayedAtStart = -1;
    private long samplesWithOpenStreams;
    private long samplesWithOpenStreamsInOutage;
    private final BooleanSupplier primaryDown;
    private final long t0 = System.nanoTime();
    private long samples;

    private ProgressMonitor(List<BackgroundTeraSort> jobs, MiniCourierCluster cluster, BooleanSupplier primaryDown) {
        this.primaryDown = primaryDown;
        this.jobs = new ArrayList<>(jobs);
        this.cluster = cluster;
        this.last = new float[jobs.size()];
        java.util.Arrays.fill(last, -2f);
        // Two threads: a job sample waits for RPCs, and the proxy samples must not wait for it.
        this.thread = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "progress-monitor");
            t.setDaemon(true);
            return t;
        });
    }

    /** {@code primaryDown}: whether the primary coordinator is stopped at a sample (called on the monitor's thread). */
    static ProgressMonitor start(List<BackgroundTeraSort> jobs, MiniCourierCluster cluster, long periodMillis,
            BooleanSupplier primaryDown) {
        ProgressMonitor m = new ProgressMonitor(jobs, cluster, primaryDown);
        m.thread.scheduleWithFixedDelay(m::sampleJobs, 0, periodMillis, TimeUnit.MILLISECONDS);
        m.thread.scheduleWithFixedDelay(m::sampleProxies, 0, Math.max(10, periodMillis / 10), TimeUnit.MILLISECONDS);
        return m;
    }

    /** Never runs twice at once (a fixed-delay task); the RPCs run outside the monitor's lock. */
    private void sampleJobs() {
        try {
            boolean running = false;
            boolean progressed = false;
            for (int i = 0; i < jobs.size(); i++) {
                BackgroundTeraSort j = jobs.get(i);
                if (j.exited()) {
                    continue;
                }
                float p = j.progress();
                running = true;
                if (p > last[i]) {
                    progressed = true;
                    last[i] = p;
                }
            }
            noteJobSample(running, progressed);
        } catch (Exception e) {
            LOG.warn("job progress sample failed: {}", e.toString());
        }
    }

    private synchronized void noteJobSample(boolean running, boolean progressed) {
        long now = System.nanoTime();
        if (progressed || !running) {
            lastProgressNanos = now;
        } else {
            long stall = TimeUnit.NANOSECONDS.toMillis(now - lastProgressNanos);
            if (stall > longestStallMillis) {
                longestStallMillis = stall;
                longestStallEndedAtMillis = TimeUnit.NANOSECONDS.toMillis(now - t0);
            }
        }
    }

    private synchronized void sampleProxies() {
        try {
            long now = System.nanoTime();
            long relayed = 0;
            long openStreams = 0;
            for (int i = 0; i < cluster.nodeManagerCount(); i++) {
                if (cluster.auxService(i) instanceof CourierShuffleHandler h) {
                    ProxyCoordination c = h.coordination();
                    Mode m = c == null ? Mode.FALLBACK : c.mode();
                    modeSamples.merge(m, 1L, Long::sum);
                    RelayStats r = h.proxy().relayStats();
                    relayed += r.bytesRelayed();
                    openStreams += r.streamsOpened() - r.streamsCompleted() - r.streamsFailed()
                            - r.streamsCancelled();
                }
            }
            if (relayedAtStart < 0) {
                relayedAtStart = relayed;
            }
            if (openStreams > 0) {
                samplesWithOpenStreams++;
                if (primaryDown.getAsBoolean()) {
                    samplesWithOpenStreamsInOutage++;
                }
            }
            if (relayed != lastRelayed || openStreams <= 0) {
                lastRelayed = relayed;
                lastShuffleProgressNanos = now;
            } else {
                longestShuffleStallMillis = Math.max(longestShuffleStallMillis,
                        TimeUnit.NANOSECONDS.toMillis(now - lastShuffleProgressNanos));
            }
            samples++;
        } catch (Exception e) {
            LOG.warn("proxy sample failed: {}", e.toString());
        }
    }

    /** The longest stretch without progress of any running job, ms (a multiple of the period, give or take). */
    synchronized long longestStallMillis() {
        return longestStallMillis;
    }

    /**
     * The longest stretch in which some reducer had a segment stream open at its node's proxy and no proxy of the
     * cluster relayed a byte, ms (a multiple of the proxies' sampling period, give or take).
     */
    synchronized long longestShuffleStallMillis() {
        return longestShuffleStallMillis;
    }

    /**
     * Bytes the proxies relayed to reducers while the monitor ran, and the fraction of samples in which some
     * reducer had a stream open: evidence that the shuffle stall was measured on a live shuffle.
     */
    synchronized long bytesRelayed() {
        return lastRelayed < 0 || relayedAtStart < 0 ? 0 : lastRelayed - relayedAtStart;
    }

    synchronized double fractionWithOpenStreams() {
        return samples == 0 ? 0 : samplesWithOpenStreams / (double) samples;
    }

    /** Samples in which some reducer had a stream open while the primary coordinator was stopped. */
    synchronized long samplesWithOpenStreamsInOutage() {
        return samplesWithOpenStreamsInOutage;
    }

    /** When the longest stall ended, ms after the monitor started. */
    synchronized long longestStallEndedAtMillis() {
        return longestStallEndedAtMillis;
    }

    /** Fraction of proxy samples in {@code mode}. */
    synchronized double fractionIn(Mode mode) {
        long all = 0;
        for (long n : modeSamples.values()) {
            all += n;
        }
        return all == 0 ? 0 : modeSamples.getOrDefault(mode, 0L) / (double) all;
    }

    synchronized long samples() {
        return samples;
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdownNow();
        if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
            LOG.warn("progress monitor did not stop within 30 s");
        }
    }
}
