package io.courier.bench.netemu;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Samples every host's open connections to other hosts every {@link #PERIOD_MILLIS} ms during a run and keeps
 * the maximum per host and per host pair, of all of them and of those on the run's shuffle service port (a real
 * cluster's hosts also keep HDFS, RPC and the job client's connections open, which no shuffle changes). Owner:
 * the run that {@link #start}s it must {@link #stop} it; the sampling thread is its own, the maxima are read after
 * {@link #stop}.
 */
final class ConnectionSampler {
    static final long PERIOD_MILLIS = 20;

    private final Testbed testbed;
    private final List<Long> agentPids;
    private final java.util.Set<Integer> ignoredPorts;
    private final java.util.Set<Integer> shufflePorts;
    /** The monitor of this array guards both per-host arrays (written by the sampler, read by the run). */
    private final int[] maxPerHost;
    private final int[] maxShufflePerHost;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile int maxPerPair;
    private volatile int maxShufflePerPair;
    private volatile String error;
    private Thread thread;

    /**
     * {@code ignoredPorts}: connections on these ports belong to another mode (see {@link Mode#foreignPorts});
     * {@code shufflePorts}: the run's shuffle service ({@link Mode#servicePort}), counted apart as well.
     */
    ConnectionSampler(Testbed testbed, List<Long> agentPids, java.util.Set<Integer> ignoredPorts,
            java.util.Set<Integer> shufflePorts) {
        this.testbed = testbed;
        this.agentPids = agentPids;
        this.ignoredPorts = ignoredPorts;
        this.shufflePorts = shufflePorts;
        this.maxPerHost = new int[testbed.hosts() + 1];
        this.maxShufflePerHost = new int[testbed.hosts() + 1];
    }

    void start() {
        running.set(true);
        thread = new Thread(this::loop, "netemu-conn-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running.get()) {
            sampleOnce();
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sampleOnce() {
        for (int h = 1; h <= testbed.hosts(); h++) {
            try {
                TcpConnections c = testbed.connections(h, agentPids.get(h - 1), ignoredPorts, shufflePorts);
                synchronized (maxPerHost) {
                    maxPerHost[h] = Math.max(maxPerHost[h], c.total());
                    maxShufflePerHost[h] = Math.max(maxShufflePerHost[h], c.onPorts());
                }
                maxPerPair = Math.max(maxPerPair, c.maxPerPeer());
                maxShufflePerPair = Math.max(maxShufflePerPair, c.maxPerPeerOnPorts());
            } catch (IOException e) {
                error = e.getMessage();
            }
        }
    }

    /** Stops sampling (one last sample first) and waits for the thread. */
    void stop() throws InterruptedException {
        running.set(false);
        thread.interrupt();
        thread.join(5000);
        sampleOnce();
    }

    int maxOverHosts() {
        return maxOf(maxPerHost);
    }

    int maxPerPair() {
        return maxPerPair;
    }

    /** As {@link #maxOverHosts}, connections on the shuffle ports only. */
    int maxShuffleOverHosts() {
        return maxOf(maxShufflePerHost);
    }

    int maxShufflePerPair() {
        return maxShufflePerPair;
    }

    private int maxOf(int[] perHost) {
        synchronized (maxPerHost) {
            int m = 0;
            for (int v : perHost) {
                m = Math.max(m, v);
            }
            return m;
        }
    }

    String error() {
        return error;
    }
}
