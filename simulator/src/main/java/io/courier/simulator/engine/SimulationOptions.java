package io.courier.simulator.engine;

import io.courier.scheduler.planning.SelectAndSplit;

/**
 * How the network and the hosts behave around the scheduler (issue "simulator", SCHEDULERS.md §11):
 * the Hadoop fetch model (at most {@code parallelCopies} concurrent fetches per reducer, 0 = unlimited),
 * Courier's planning ({@code MaxNum} network flows per sending host, split while larger than
 * {@code MinSize}), and CoflowSim's admission in fixed epochs (0 = admit at arrival). Immutable.
 */
public final class SimulationOptions {
    /** Hadoop's {@code mapreduce.reduce.shuffle.parallelcopies} default. */
    public static final int HADOOP_PARALLEL_COPIES = 5;

    private final int parallelCopies;
    private final boolean courier;
    private final int maxFlows;
    private final double minSplitSize;
    private final double admissionEpoch;

    private SimulationOptions(int parallelCopies, boolean courier, int maxFlows, double minSplitSize,
            double admissionEpoch) {
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
    }

    /** Every flow runs from its coflow's arrival; no Courier; admission at arrival. */
    public static SimulationOptions defaults() {
        return new SimulationOptions(0, false, SelectAndSplit.UNLIMITED, 1048576.0, 0.0);
    }

    public SimulationOptions withParallelCopies(int n) {
        return new SimulationOptions(n, courier, maxFlows, minSplitSize, admissionEpoch);
    }

    public SimulationOptions withCourier(boolean on) {
        return new SimulationOptions(parallelCopies, on, maxFlows, minSplitSize, admissionEpoch);
    }

    public SimulationOptions withMaxFlows(int n) {
        return new SimulationOptions(parallelCopies, courier, n, minSplitSize, admissionEpoch);
    }

    public SimulationOptions withMinSplitSize(double bytes) {
        return new SimulationOptions(parallelCopies, courier, maxFlows, bytes, admissionEpoch);
    }

    public SimulationOptions withAdmissionEpoch(double seconds) {
        return new SimulationOptions(parallelCopies, courier, maxFlows, minSplitSize, seconds);
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
