package io.courier.scheduler.bench;

import io.courier.simulator.trace.TraceCoflow;

/**
 * A coflow that is active at the snapshot instant, with the fraction of its (modelled) lifetime that has
 * elapsed; the snapshot gives its flows progress around that fraction. Immutable.
 */
public final class ActiveCoflow {
    private final TraceCoflow coflow;
    private final double elapsed;

    public ActiveCoflow(TraceCoflow coflow, double elapsed) {
        if (coflow == null) {
            throw new IllegalArgumentException("coflow must not be null");
        }
        if (!(elapsed >= 0 && elapsed < 1)) {
            throw new IllegalArgumentException("coflow " + coflow.id()
                    + ": elapsed fraction must be in [0, 1) (an active coflow is not finished), got " + elapsed);
        }
        this.coflow = coflow;
        this.elapsed = elapsed;
    }

    public TraceCoflow coflow() {
        return coflow;
    }

    /** Fraction of the coflow's modelled lifetime already elapsed at the snapshot instant, in [0, 1). */
    public double elapsed() {
        return elapsed;
    }

    @Override
    public String toString() {
        return "coflow " + coflow.id() + " (elapsed " + elapsed + ")";
    }
}
