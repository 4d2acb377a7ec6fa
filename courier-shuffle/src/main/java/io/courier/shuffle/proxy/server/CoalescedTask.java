package io.courier.shuffle.proxy.server;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs {@code task} on {@code executor} at most once per request burst: a request while a run is already queued
 * (and has not started) adds nothing, because the queued run will see everything the request was about. A
 * request after the run started queues a new one. What the task reads must therefore be published before
 * {@link #request()} is called (the send plan is: the scheduler installs it, then notifies).
 *
 * <p>Threads: {@link #request()} from any thread; the task runs on the executor.
 */
final class CoalescedTask {
    private final Executor executor;
    private final Runnable task;
    private final AtomicBoolean queued = new AtomicBoolean();
    private final Runnable run = this::run;

    CoalescedTask(Executor executor, Runnable task) {
        this.executor = executor;
        this.task = task;
    }

    /** Queues a run unless one is queued already. */
    void request() {
        if (queued.compareAndSet(false, true)) {
            try {
                executor.execute(run);
            } catch (RuntimeException e) {
                queued.set(false); // not queued after all (a stopped event loop): a later request may try again
                throw e;
            }
        }
    }

    private void run() {
        // Cleared before the task reads anything: a request from now on may concern what it has already read.
        queued.set(false);
        task.run();
    }
}
