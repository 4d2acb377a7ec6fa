package io.courier.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the primary coordinator and starts it again on the same port, over and over: up for {@code upMillis},
 * down for {@code downMillis}. Owns the primary while it runs (its own thread, {@code coordinator-chaos});
 * {@link #stop()} ends the cycle with the primary up and returns it to the caller, who closes it. A stop is
 * {@link InProcessCoordinator#close()}: the actor system terminates and its port closes, so the proxies get no
 * answers and then refused connections. That is gentler than {@code kill -9} in one way (Artery may tell connected
 * peers that the system is going away); the proxies do not rely on it: they detect a silent coordinator by their
 * ack timeout either way.
 */
final class ChaosMonkey {
    private static final Logger LOG = LoggerFactory.getLogger(ChaosMonkey.class);

    /** One outage: when the primary stopped and when it was started again, as offsets from the monkey's start. */
    record Outage(long stoppedAtMillis, long startedAtMillis) {
        long millis() {
            return startedAtMillis - stoppedAtMillis;
        }
    }

    private final String scheduler;
    private final int port;
    private final long epochMillis;
    private final long upMillis;
    private final long downMillis;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final List<Outage> outages = new ArrayList<>();
    private final Thread thread;
    private final long t0 = System.nanoTime();
    private InProcessCoordinator primary;
    private Exception failure;
    /** Whether the primary is stopped now; read by other threads (the progress monitor). */
    private volatile boolean down;

    private ChaosMonkey(InProcessCoordinator primary, String scheduler, int port, long epochMillis, long upMillis,
            long downMillis) {
        this.primary = primary;
        this.scheduler = scheduler;
        this.port = port;
        this.epochMillis = epochMillis;
        this.upMillis = upMillis;
        this.downMillis = downMillis;
        this.thread = new Thread(this::cycle, "coordinator-chaos");
        this.thread.setDaemon(true);
    }

    /** Takes over {@code primary} (listening on {@code port}) and starts cycling it. */
    static ChaosMonkey start(InProcessCoordinator primary, String scheduler, int port, long epochMillis,
            long upMillis, long downMillis) {
        ChaosMonkey m = new ChaosMonkey(primary, scheduler, port, epochMillis, upMillis, downMillis);
        m.thread.start();
        return m;
    }

    private void cycle() {
        try {
            while (!stopRequested.await(upMillis, TimeUnit.MILLISECONDS)) {
                long stopped = elapsed();
                down = true;
                primary.close();
                primary = null;
                LOG.info("chaos: primary coordinator on port {} stopped", port);
                // The outage runs its full length even when a stop is requested meanwhile: a short one would
                // not be an outage.
                Thread.sleep(downMillis);
                primary = InProcessCoordinator.start(scheduler, port, epochMillis);
                down = false;
                synchronized (outages) {
                    outages.add(new Outage(stopped, elapsed()));
                }
                LOG.info("chaos: primary coordinator on port {} started again after {} ms", port,
                        elapsed() - stopped);
            }
        } catch (Exception e) {
            failure = e;
            LOG.error("chaos: the monkey failed", e);
        }
    }

    private long elapsed() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /** Whether the primary is stopped at this moment (any thread). */
    boolean primaryDown() {
        return down;
    }

    /** The outages so far. */
    List<Outage> outages() {
        synchronized (outages) {
            return new ArrayList<>(outages);
        }
    }

    /** Ends the cycle (after a running outage) and hands back the primary, up. Throws if a restart failed. */
    InProcessCoordinator stop() throws Exception {
        stopRequested.countDown();
        thread.join(TimeUnit.MINUTES.toMillis(2));
        if (thread.isAlive()) {
            throw new IllegalStateException("the chaos thread did not stop within 2 minutes");
        }
        if (failure != null) {
            throw new IllegalStateException("restarting the primary coordinator failed", failure);
        }
        if (primary == null) {
            primary = InProcessCoordinator.start(scheduler, port, epochMillis);
        }
        return primary;
    }
}
