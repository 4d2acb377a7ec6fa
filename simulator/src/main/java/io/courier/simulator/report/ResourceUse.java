package io.courier.simulator.report;

/**
 * What a run cost the JVM, as the CLI measured it: CPU seconds of the simulating thread (NaN when the JVM
 * cannot tell) and peak heap bytes (an upper bound: the sum of the heap pools' peaks). Immutable.
 */
public final class ResourceUse {
    private final double cpuSeconds;
    private final long peakHeapBytes;

    public ResourceUse(double cpuSeconds, long peakHeapBytes) {
        this.cpuSeconds = cpuSeconds;
        this.peakHeapBytes = peakHeapBytes;
    }

    public double cpuSeconds() {
        return cpuSeconds;
    }

    public long peakHeapBytes() {
        return peakHeapBytes;
    }
}
