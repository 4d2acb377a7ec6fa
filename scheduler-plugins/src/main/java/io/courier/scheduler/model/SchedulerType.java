package io.courier.scheduler.model;

/** Whether a scheduler decides per-flow rates or a coflow order with per-flow priority classes. */
public enum SchedulerType {
    /** The decision carries a rate (bytes/s) for every active flow; 0 pauses the flow. */
    RATE_BASED,
    /** The decision carries a coflow order and per-flow priority classes (0 = highest). */
    ORDER_BASED
}
