package io.courier.shuffle.proxy.soak;

import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocatorMetric;
import io.netty.util.internal.PlatformDependent;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a long-running proxy could leak, counted at one instant: live threads (by name, with trailing digits
 * folded so that pools compare as pools; the JDK's self-trimming pools left out), open file descriptors ({@code /proc/self/fd}), Netty's pooled buffers
 * still allocated (active allocations in the default allocator's arenas), direct memory, and heap used after a GC.
 * Immutable; {@link #take()} may be called from any thread.
 */
final class ResourceSnapshot {
    final Map<String, Integer> threads;
    final int fds;
    final long activeBufferAllocations;
    final long pooledDirectBytes;
    final long nettyDirectBytes;
    final long heapUsedAfterGc;

    private ResourceSnapshot(Map<String, Integer> threads, int fds, long activeBufferAllocations,
            long pooledDirectBytes, long nettyDirectBytes, long heapUsedAfterGc) {
        this.threads = Collections.unmodifiableMap(threads);
        this.fds = fds;
        this.activeBufferAllocations = activeBufferAllocations;
        this.pooledDirectBytes = pooledDirectBytes;
        this.nettyDirectBytes = nettyDirectBytes;
        this.heapUsedAfterGc = heapUsedAfterGc;
    }

    /**
     * Thread pools the JDK owns and trims on its own clock, not ours: the "process reaper" pool grows by one thread
     * per concurrently running subprocess (Hadoop's {@code Shell} runs some for local file permissions) and lets an
     * idle thread go only after 60 s, longer than {@link #take()}'s callers wait. A CI run saw it at 1 → 2 after the
     * soak; counting it would report the JDK's cache as our leak.
     */
    private static final java.util.Set<String> JDK_SELF_TRIMMING_POOLS =
            Collections.unmodifiableSet(new java.util.HashSet<>(java.util.Arrays.asList("process reaper")));

    static ResourceSnapshot take() {
        Map<String, Integer> threads = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && !JDK_SELF_TRIMMING_POOLS.contains(pool(t.getName()))) {
                threads.merge(pool(t.getName()), 1, Integer::sum);
            }
        }
        PooledByteBufAllocatorMetric m = PooledByteBufAllocator.DEFAULT.metric();
        long active = 0;
        for (PoolArenaMetric a : m.directArenas()) {
            active += a.numActiveAllocations();
        }
        for (PoolArenaMetric a : m.heapArenas()) {
            active += a.numActiveAllocations();
        }
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        System.gc(); // a measurement, not synchronisation: heap "used" is meaningless without a collection
        return new ResourceSnapshot(threads, openFileDescriptors(), active, m.usedDirectMemory(),
                PlatformDependent.usedDirectMemory(), mem.getHeapMemoryUsage().getUsed());
    }

    /** Thread name with its trailing number(s) removed: {@code courier-proxy-io-3-2} → {@code courier-proxy-io}. */
    static String pool(String name) {
        return name.replaceAll("[-#\\s]*[0-9]+([-#\\s]+[0-9]+)*$", "");
    }

    static int openFileDescriptors() {
        String[] fds = new File("/proc/self/fd").list();
        if (fds != null) {
            return fds.length;
        }
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            return (int) ((com.sun.management.UnixOperatingSystemMXBean) os).getOpenFileDescriptorCount();
        }
        return -1;
    }

    int threadCount() {
        int n = 0;
        for (int c : threads.values()) {
            n += c;
        }
        return n;
    }

    /** Thread pools with more live threads now than in {@code base}, as {@code name: before → now}. */
    List<String> moreThreadsThan(ResourceSnapshot base) {
        List<String> extra = new ArrayList<>();
        for (Map.Entry<String, Integer> e : threads.entrySet()) {
            int before = base.threads.containsKey(e.getKey()) ? base.threads.get(e.getKey()) : 0;
            if (e.getValue() > before) {
                extra.add(e.getKey() + ": " + before + " -> " + e.getValue());
            }
        }
        return extra;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "threads %d, fds %d, active pooled buffers %d, pooled direct %.1f MiB,"
                + " Netty direct %s, heap after GC %.1f MiB", threadCount(), fds, activeBufferAllocations,
                pooledDirectBytes / 1048576.0, nettyDirectBytes < 0 ? "not tracked by Netty (JDK cleaner)"
                        : String.format(Locale.ROOT, "%.1f MiB", nettyDirectBytes / 1048576.0),
                heapUsedAfterGc / 1048576.0);
    }
}
