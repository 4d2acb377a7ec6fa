package io.courier.bench.netemu;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Samples every host's open connections to other hosts every {@link #PERIOD_MILLIS} ms during a run and keeps
 * the maximum per host and per host pair. Owner: the run that {@link #start}s it must {@link #stop} it; the
 * sampling thread is its own, the maxima are read after {@link #stop}.
 */
final class ConnectionSampler {
    static final long PERIOD_MILLIS = 20;

    private final Testbed testbed;
    private final List<Long> agentPids;
    private final java.util.Set<Integer> ignoredPorts;
    private final int[] maxPerHost;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile int maxPerPair;
    private volatile String error;
    private Thread thread;

    /** {@code ignoredPorts}: connections on these ports belong to another mode (see {@link Mode#foreignPorts}). */
    ConnectionSampler(Testbed testbed, List<Long> agentPids, java.util.Set<Integer> ignoredPorts) {
        this.testbed = testbed;
        this.agentPids = agentPids;
        this.ignoredPorts = ignoredPorts;
        this.maxPerHost = new int[testbed.hosts() + 1];
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
                TcpConnections c = testbed.connections(h, agentPids.get(h - 1), ignoredPorts);
                synchronized (maxPerHost) {
                    maxPerHost[h] = Math.max(maxPerHost[h], c.total());
                }
                maxPerPair = Math.max(maxPerPair, c.maxPerPeer());
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
        synchronized (maxPerHost) {
            int m = 0;
            for (int v : maxPerHost) {
                m = Math.max(m, v);
            }
            return m;
        }
    }

    int maxPerPair() {
        return maxPerPair;
    }

    String error() {
        return error;
    }
}
