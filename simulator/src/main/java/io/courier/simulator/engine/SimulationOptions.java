package io.courier.simulator.engine;

import io.courier.scheduler.planning.SelectAndSplit;

/**
 * How the network and the hosts behave around the scheduler (issue "simulator", SCHEDULERS.md §11):
 * the Hadoop fetch model (at most {@code parallelCopies} concurrent fetches per reducer, 0 = unlimited),
 * Courier's planning ({@code MaxNum} network flows per sending host, split while larger than
 * {@code MinSize}), CoflowSim's admission in fixed epochs (0 = admit at arrival), and when the scheduler
 * is called again ({@link Triggers}). Immutable.
 */
public final class SimulationOptions {
    /** Hadoop's {@code mapreduce.reduce.shuffle.parallelcopies} default. */
    public static final int HADOOP_PARALLEL_COPIES = 5;

    private final int parallelCopies;
    private final boolean courier;
    private final int maxFlows;
    private final double minSplitSize;
    private final double admissionEpoch;
    private final Triggers triggers;
    private final boolean skipQuietWakeups;

    private SimulationOptions(int parallelCopies, boolean courier, int maxFlows, double minSplitSize,
            double admissionEpoch, Triggers triggers, boolean skipQuietWakeups) {
        if (parallelCopies < 0) {
            throw new IllegalArgumentException("parallel copies must be >= 0 (0 = unlimited), got " + parallelCopies);
        }
        if (maxFlows < 1) {
            throw new IllegalArgumentException("max flows per host must be >= 1, got " + maxFlows);
        }
        if (!(minSplitSize > 0) || Double.isInfinite(minSplitSize)) {
            throw new IllegalArgumentException("min split size must be finite and > 0 bytes, got " + minSplitSize);
        }
        if (!(admissionEpoch >= 0) || Double.isInfinite(admissionEpoch)) {
            throw new IllegalArgumentException("admission epoch must be finite and >= 0 s, got " + admissionEpoch);
        }
        this.parallelCopies = parallelCopies;
        this.courier = courier;
        this.maxFlows = maxFlows;
        this.minSplitSize = minSplitSize;
        this.admissionEpoch = admissionEpoch;
        this.triggers = triggers;
        this.skipQuietWakeups = skipQuietWakeups;
    }

    /**
     * Every flow runs from its coflow's arrival; no Courier; admission at arrival; the scheduler called at
     * every wake-up (the CLI turns {@link #withQuietWakeupSkipping} on).
     */
    public static SimulationOptions defaults() {
        return new SimulationOptions(0, false, SelectAndSplit.UNLIMITED, 1048576.0, 0.0, Triggers.FLOW, false);
    }

    public SimulationOptions withParallelCopies(int n) {
        return new SimulationOptions(n, courier, maxFlows, minSplitSize, admissionEpoch, triggers, skipQuietWakeups);
    }

    public SimulationOptions withCourier(boolean on) {
        return new SimulationOptions(parallelCopies, on, maxFlows, minSplitSize, admissionEpoch, triggers, skipQuietWakeups);
    }

    public SimulationOptions withMaxFlows(int n) {
        return new SimulationOptions(parallelCopies, courier, n, minSplitSize, admissionEpoch, triggers, skipQuietWakeups);
    }

    public SimulationOptions withMinSplitSize(double bytes) {
        return new SimulationOptions(parallelCopies, courier, maxFlows, bytes, admissionEpoch, triggers, skipQuietWakeups);
    }

    public SimulationOptions withAdmissionEpoch(double seconds) {
        return new SimulationOptions(parallelCopies, courier, maxFlows, minSplitSize, seconds, triggers, skipQuietWakeups);
    }

    public SimulationOptions withTriggers(Triggers t) {
        return new SimulationOptions(parallelCopies, courier, maxFlows, minSplitSize, admissionEpoch, t, skipQuietWakeups);
    }

    /**
     * With {@code on} (the CLI's default), a scheduler may skip a wake-up after which it provably decides the
     * same ({@link io.courier.scheduler.CoflowScheduler#skipWakeup}); off calls it at every wake-up. The
     * results are the same either way up to floating-point rounding (an interval that is not cut in two
     * adds its bytes in one step); only the number of decisions differs.
     */
    public SimulationOptions withQuietWakeupSkipping(boolean on) {
        return new SimulationOptions(parallelCopies, courier, maxFlows, minSplitSize, admissionEpoch, triggers, on);
    }

    public boolean skipQuietWakeups() {
        return skipQuietWakeups;
    }

    public Triggers triggers() {
        return triggers;
    }

    public int parallelCopies() {
        return parallelCopies;
    }

    public boolean courier() {
        return courier;
    }

    public int maxFlows() {
        return maxFlows;
    }

    public double minSplitSize() {
        return minSplitSize;
    }

    public double admissionEpoch() {
        return admissionEpoch;
    }
}
