package io.courier.demo;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
import io.courier.coordinator.http.StatusHttpServer;
import io.courier.coordinator.status.CoordinatorStatus;

/**
 * A Courier coordinator with its HTTP status API inside the benchmark's JVM, as {@code bin/courier coordinator}
 * would run it: the mini cluster's proxies reach it over Artery TCP on loopback exactly as they would a remote
 * daemon. Owns both and stops them in {@link #close()}. One thread starts, queries and closes it.
 */
final class InProcessCoordinator implements AutoCloseable {
    private final Coordinator coordinator;
    private final StatusHttpServer http;

    private InProcessCoordinator(Coordinator coordinator, StatusHttpServer http) {
        this.coordinator = coordinator;
        this.http = http;
    }

    /** Starts a coordinator running {@code scheduler} on {@code port} with the given epoch; HTTP on any port. */
    static InProcessCoordinator start(String scheduler, int port, long epochMillis) throws IOException {
        ClassLoader cl = InProcessCoordinator.class.getClassLoader();
        Config config = ConfigFactory.empty()
                .withValue("courier.coordinator.port", ConfigValueFactory.fromAnyRef(port))
                .withValue("courier.coordinator.http.port", ConfigValueFactory.fromAnyRef(0))
                .withValue("courier.coordinator.scheduler.name", ConfigValueFactory.fromAnyRef(scheduler))
                .withValue("courier.coordinator.epoch", ConfigValueFactory.fromAnyRef(epochMillis + "ms"))
                .withFallback(ConfigFactory.defaultReference(cl)).resolve();
        CoordinatorSettings settings = CoordinatorSettings.from(config);
        Coordinator c = Coordinator.start(settings, config, cl);
        try {
            return new InProcessCoordinator(c, StatusHttpServer.start(settings.httpHost(), 0,
                    () -> c.status(Duration.ofSeconds(5))));
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The status the scheduling actor reports now. */
    CoordinatorStatus status() throws Exception {
        return coordinator.status(Duration.ofSeconds(10)).toCompletableFuture().get(15, TimeUnit.SECONDS);
    }

    /** The port of {@code GET /api/v1/status}. */
    int httpPort() {
        return http.port();
    }

    /** Waits until {@code nodes} proxies are registered; returns how long that took. */
    long awaitNodes(int nodes, long timeoutMillis) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (status().nodes().size() < nodes) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + status().nodes().size() + " of " + nodes
                        + " proxies registered with the coordinator within " + timeoutMillis + " ms");
            }
            Thread.sleep(200); // polling another component's state: nothing to wait on
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    @Override
    public void close() {
        try {
            http.close();
        } finally {
            coordinator.close();
        }
    }
}
