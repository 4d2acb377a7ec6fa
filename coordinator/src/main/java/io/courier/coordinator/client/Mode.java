package io.courier.coordinator.client;

/** Whether a proxy follows a coordinator's decisions or schedules on its own. */
public enum Mode {
    /** Registered and hearing from the coordinator: apply its decisions. */
    COORDINATED,
    /** No coordinator (not yet registered, or silent beyond the ack timeout): decentralized priorities. */
    FALLBACK
}
