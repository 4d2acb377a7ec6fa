package io.courier.simulator.engine;

/** Told about a run's progress; called on the simulating thread, at most a few times per second. */
public interface ProgressListener {
    /** {@code done} of {@code total} coflows have completed at simulated time {@code now}. */
    void progress(double now, int done, int total);

    /** A listener that ignores progress. */
    ProgressListener NONE = (now, done, total) -> { };
}
