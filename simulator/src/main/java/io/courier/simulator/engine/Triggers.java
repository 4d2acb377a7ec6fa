package io.courier.simulator.engine;

/** When the simulator calls the scheduler again (besides its own wake-ups and coflow admissions). */
public enum Triggers {
    /** At every flow completion and coflow completion: SCHEDULERS.md §0.3, exact and work-conserving. */
    FLOW,
    /**
     * Only at coflow completions (and when a waiting fetch starts): CoflowSim's behaviour
     * ({@code afterJobAdmission}/{@code afterJobDeparture}); a finished flow's bandwidth stays unused until
     * then. Far fewer decisions on traces with wide coflows.
     */
    COFLOW
}
