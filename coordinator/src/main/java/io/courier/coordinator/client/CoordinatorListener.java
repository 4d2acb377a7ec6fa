package io.courier.coordinator.client;

import io.courier.coordinator.protocol.DecisionUpdate;

/**
 * What the proxy hears from its coordinator client. Called on the client's actor thread, one call at a time (when
 * the client replaces its actor system, the FALLBACK of the replacement comes from its watchdog thread, after the
 * old actor has stopped and before the fresh one starts): implementations must return quickly and hand the work to
 * the proxy's own threads.
 */
public interface CoordinatorListener {
    /** The decisions of one epoch for this node's flows (only called in {@link Mode#COORDINATED}). */
    void onDecisions(DecisionUpdate update);

    /**
     * The mode changed. In {@link Mode#FALLBACK} the proxy schedules on its own (Stream's decentralized
     * priorities) and ignores earlier coordinator decisions; {@code reason} says why, for the log.
     */
    void onModeChanged(Mode mode, String reason);
}
