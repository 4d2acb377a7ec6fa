package io.courier.shuffle.proxy.testing;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waits for what the proxies' event loops make true shortly after a test's own step: a consumer's EOF or close
 * returns its stream's window on the event loop (not on the reading thread), counters settle after the last END,
 * a relay notices a cancel. Asserting such things at once races with the event loop.
 */
public final class Eventually {
    private static final long TIMEOUT_SECONDS = 30;

    private Eventually() {
    }

    /** Polls {@code condition} every 10 ms until it holds; fails naming {@code what} after 30 s. */
    public static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT_SECONDS + " s waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
