package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.FlowReport;
import io.courier.scheduler.model.FlowId;

/**
 * The scheduling actor's knowledge of one unified flow: the latest report from its sender (authoritative:
 * the sender knows bytes sent and pending) and from its receiver (used only until the sender reports), and
 * the last decision. Mutable; owned by the scheduling actor's thread.
 */
final class FlowState {
    final FlowKey key;
    final FlowId id;
    FlowReport fromSender;
    FlowReport fromReceiver;
    double lastRate = Double.NaN;
    int lastPriority = -1;

    FlowState(FlowKey key, FlowId id) {
        this.key = key;
        this.id = id;
    }

    FlowReport best() {
        return fromSender != null ? fromSender : fromReceiver;
    }
}
