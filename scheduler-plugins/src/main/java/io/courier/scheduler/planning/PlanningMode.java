package io.courier.scheduler.planning;

import io.courier.scheduler.model.SchedulerType;

/** How Courier's agent reads the scheduler's decision (SCHEDULERS.md §11): by rate, by order, or no scheduler. */
public enum PlanningMode {
    /** Rate-based scheduler: unified rates and sizes add. */
    RATE,
    /** Order-based scheduler: the best rank wins; equal ranks add sizes. */
    ORDER,
    /** No coflow scheduler deployed: pure aggregation; importance is size. */
    NONE;

    public static PlanningMode of(SchedulerType type) {
        return type == SchedulerType.RATE_BASED ? RATE : ORDER;
    }
}
