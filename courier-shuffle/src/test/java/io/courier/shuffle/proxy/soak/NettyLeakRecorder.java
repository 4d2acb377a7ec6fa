package io.courier.shuffle.proxy.soak;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns Netty's buffer leak detection to PARANOID (every buffer tracked) and records every leak it reports, so
 * that a test can fail on one instead of it only being logged. Netty's detector for {@link ByteBuf}s is the
 * static {@code AbstractByteBuf.leakDetector}; a listener on it sees every report. Owned by one test, which
 * {@link #close()}s it to restore the previous level. Leak reports arrive on whichever thread allocates next.
 */
final class NettyLeakRecorder implements AutoCloseable {
    private final ResourceLeakDetector.Level previous;
    private final ResourceLeakDetector<?> detector;
    private final List<String> leaks = new ArrayList<>();

    NettyLeakRecorder() throws ReflectiveOperationException {
        previous = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        Field f = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
        f.setAccessible(true);
        detector = (ResourceLeakDetector<?>) f.get(null);
        detector.setLeakListener(new ResourceLeakDetector.LeakListener() {
            @Override
            public void onLeak(String resourceType, String records) {
                synchronized (leaks) {
                    leaks.add(resourceType + ": " + records);
                }
            }
        });
    }

    /**
     * Collects garbage and allocates a few tracked buffers, which is when Netty looks for (and reports) buffers
     * that were collected without being released; returns every leak reported so far.
     */
    List<String> collectLeaks() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100); // lets the reference handler enqueue collected trackers; nothing to wait on
            for (int k = 0; k < 16; k++) {
                ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(64);
                b.release();
            }
        }
        synchronized (leaks) {
            return new ArrayList<>(leaks);
        }
    }

    @Override
    public void close() {
        detector.setLeakListener(null);
        ResourceLeakDetector.setLevel(previous);
    }
}
