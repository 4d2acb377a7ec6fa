package io.courier.bench.netemu;

import java.io.IOException;
import java.util.List;

/**
 * The idle check before a run: the CPU that processes other than ours used over one-second windows. A run
 * starts after the first window below the limit, or after {@code maxWindows} windows with the last reading
 * (which then marks the run invalid). Waiting matters on hosts where something outside the benchmark reacts
 * to the previous run for a few seconds — e.g. a kernel memory monitor reclaiming what the run's JVMs
 * touched — and would otherwise invalidate runs that a short pause makes valid; the validity limit itself
 * is unchanged. Used by the driver's thread only.
 */
final class IdleGate {
    /** One window's foreign CPU in cores. */
    interface Window {
        double foreignCores() throws IOException, InterruptedException;
    }

    /** The processes that count as ours, read afresh for every window. */
    interface Pids {
        List<Long> get() throws IOException;
    }

    /** The last window's reading and how many windows it took. */
    static final class Reading {
        final double foreignCores;
        final int windows;

        Reading(double foreignCores, int windows) {
            this.foreignCores = foreignCores;
            this.windows = windows;
        }
    }

    private final double limit;
    private final int maxWindows;

    /**
     * @param limit      foreign cores at or above which a window is busy
     * @param maxWindows windows tried at most (≥ 1)
     */
    IdleGate(double limit, int maxWindows) {
        if (!(limit > 0) || maxWindows < 1) {
            throw new IllegalArgumentException("idle gate needs a positive limit and at least one window, got "
                    + limit + " and " + maxWindows);
        }
        this.limit = limit;
        this.maxWindows = maxWindows;
    }

    Reading await(Window window) throws IOException, InterruptedException {
        double cores = Double.NaN;
        for (int w = 1; w <= maxWindows; w++) {
            cores = window.foreignCores();
            if (cores < limit) {
                return new Reading(cores, w);
            }
        }
        return new Reading(cores, maxWindows);
    }

    /**
     * A one-second window over the whole machine ({@code /proc/stat}) minus the processes {@code ours}
     * lists at the start of the window (re-read per window: containers come and go).
     */
    static Window machineWindow(Pids ours, int cpus) {
        return () -> {
            List<Long> pids = ours.get();
            long ourTicks0 = Testbed.ticksOf(pids);
            CpuTimes t0 = Testbed.cpu();
            Thread.sleep(1000);
            CpuTimes t1 = Testbed.cpu();
            long ourTicks1 = Testbed.ticksOf(pids);
            return Math.max(0, t1.busyCoresSince(t0, cpus)
                    - cpus * (double) (ourTicks1 - ourTicks0) / Math.max(1, t1.total() - t0.total()));
        };
    }
}
