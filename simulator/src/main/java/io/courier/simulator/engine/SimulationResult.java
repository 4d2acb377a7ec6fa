package io.courier.simulator.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The outcome of one simulation run: per-coflow results in completion order plus run statistics. Immutable. */
public final class SimulationResult {
    private final String scheduler;
    private final boolean courier;
    private final List<CoflowResult> coflows;
    private final ConcurrencyStats concurrency;
    private final long decisions;
    private final double wallSeconds;

    public SimulationResult(String scheduler, boolean courier, List<CoflowResult> coflows,
            ConcurrencyStats concurrency, long decisions, double wallSeconds) {
        this.scheduler = scheduler;
        this.courier = courier;
        this.coflows = Collections.unmodifiableList(new ArrayList<>(coflows));
        this.concurrency = concurrency;
        this.decisions = decisions;
        this.wallSeconds = wallSeconds;
    }

    /** The scheduler's label as the user asked for it (name plus any parameters). */
    public String scheduler() {
        return scheduler;
    }

    /** Whether Courier's flow planning (Merge, SelectAndSplit) was applied to the decisions. */
    public boolean courier() {
        return courier;
    }

    public List<CoflowResult> coflows() {
        return coflows;
    }

    public ConcurrencyStats concurrency() {
        return concurrency;
    }

    /** Number of scheduler calls. */
    public long decisions() {
        return decisions;
    }

    public double wallSeconds() {
        return wallSeconds;
    }

    /** Finish time of the last coflow (s). */
    public double makespan() {
        double m = 0;
        for (CoflowResult c : coflows) {
            m = Math.max(m, c.finish());
        }
        return m;
    }
}
