package io.courier.shuffle.proxy.server;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CoalescedTaskTest {
    /** An executor that runs what it was given only when told to (an event loop that is busy meanwhile). */
    private static final class Queue implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable r) {
            tasks.add(r);
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.poll().run();
            }
        }
    }

    @Test
    void requestsWhileARunIsQueuedMakeOneRun() {
        Queue loop = new Queue();
        AtomicInteger runs = new AtomicInteger();
        CoalescedTask t = new CoalescedTask(loop, runs::incrementAndGet);
        t.request();
        t.request();
        t.request();
        assertEquals(1, loop.tasks.size());
        loop.runAll();
        assertEquals(1, runs.get());
        t.request(); // after the run: a new one
        assertEquals(1, loop.tasks.size());
        loop.runAll();
        assertEquals(2, runs.get());
    }

    @Test
    void aRequestDuringARunQueuesAnother() {
        Queue loop = new Queue();
        AtomicInteger runs = new AtomicInteger();
        CoalescedTask[] t = new CoalescedTask[1];
        t[0] = new CoalescedTask(loop, () -> {
            if (runs.incrementAndGet() == 1) {
                t[0].request(); // a change published while the first run reads: it must not be lost
            }
        });
        t[0].request();
        loop.runAll();
        assertEquals(2, runs.get());
    }

    @Test
    void aRejectedRunDoesNotBlockLaterRequests() {
        AtomicInteger attempts = new AtomicInteger();
        Queue loop = new Queue();
        Executor flaky = r -> {
            if (attempts.incrementAndGet() == 1) {
                throw new RejectedExecutionException("stopped");
            }
            loop.execute(r);
        };
        AtomicInteger runs = new AtomicInteger();
        CoalescedTask t = new CoalescedTask(flaky, runs::incrementAndGet);
        assertThrows(RejectedExecutionException.class, t::request);
        t.request();
        loop.runAll();
        assertEquals(1, runs.get());
    }
}
