package io.courier.scheduler.model;

/**
 * Information a scheduler may need beyond the always-visible state (SCHEDULERS.md §0.2–0.3).
 * A scheduler that does not declare {@link #SIZES} receives a state whose flow sizes are hidden.
 */
public enum Info {
    /** Flow sizes and remaining bytes (clairvoyant schedulers). */
    SIZES,
    /** Coflow weights (they are visible to everyone; declaring them documents the dependency). */
    WEIGHTS,
    /** Available-bandwidth estimates of extra links. */
    LINK_ESTIMATES,
    /** Measured per-flow throughput over the last interval. */
    MEASURED_RATES,
    /** Only what one receiver can see locally (decentralized schedulers). */
    RECEIVER_LOCAL_ONLY
}
