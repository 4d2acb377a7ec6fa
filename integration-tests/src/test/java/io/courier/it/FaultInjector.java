package io.courier.it;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs one fault scenario (kill a node when..., restart it when...) on its own thread while a job runs, and
 * keeps what it observed or the error it hit. Owns that thread: started by the constructor, interrupted and joined
 * by {@link #close()} (the job has ended by then). The test thread reads the result after {@link #close()}.
 *
 * @param <T> what the scenario reports
 */
final class FaultInjector<T> implements AutoCloseable {
    /** A scenario; it may block (polling the cluster) and must end when interrupted. */
    @FunctionalInterface
    interface Scenario<T> {
        T run() throws Exception;
    }

    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final Thread thread;

    FaultInjector(String name, Scenario<T> scenario) {
        thread = new Thread(() -> {
            try {
                result.complete(scenario.run());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * What the scenario reported; empty if it had not finished when the job ended.
     *
     * @throws AssertionError wrapping the scenario's failure
     */
    Optional<T> outcome() {
        if (result.isCompletedExceptionally()) {
            try {
                result.join();
            } catch (RuntimeException e) {
                throw new AssertionError("the fault scenario failed: " + e.getCause(), e.getCause());
            }
        }
        return Optional.ofNullable(result.getNow(null));
    }

    @Override
    public void close() {
        if (!result.isDone()) {
            thread.interrupt();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
