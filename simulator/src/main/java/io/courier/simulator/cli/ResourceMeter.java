package io.courier.simulator.cli;

import io.courier.simulator.report.ResourceUse;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Measures what one simulation run costs the JVM: CPU time of the thread that runs it (the simulator is
 * single-threaded; GC threads are not counted) and the peak heap use during it. The peak is the sum of
 * the heap pools' peaks since {@link #start}, an upper bound of the true peak (pools peak at different
 * instants), read from the JVM's memory pool counters, which {@link #start} resets for the whole JVM.
 * Used by the CLI thread only, one run at a time.
 */
final class ResourceMeter {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
    private long cpuStart;

    /** Call right before a run, on the thread that runs it. */
    void start() {
        System.gc(); // so that the previous run's garbage does not count as this run's peak
        for (MemoryPoolMXBean p : pools) {
            if (p.getType() == MemoryType.HEAP && p.isValid()) {
                p.resetPeakUsage();
            }
        }
        cpuStart = threadCpu();
    }

    /** Call right after the run, on the same thread. */
    ResourceUse stop() {
        long cpu = threadCpu();
        long peak = 0;
        for (MemoryPoolMXBean p : pools) {
            if (p.getType() == MemoryType.HEAP && p.isValid()) {
                MemoryUsage u = p.getPeakUsage();
                peak += u == null ? 0 : u.getUsed();
            }
        }
        return new ResourceUse(cpu < 0 || cpuStart < 0 ? Double.NaN : (cpu - cpuStart) / 1e9, peak);
    }

    private long threadCpu() {
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    }
}
