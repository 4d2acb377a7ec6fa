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
    /** When each report arrived (the actor's clock), and whether its client suppresses reports (extrapolate it). */
    long senderNanos;
    long receiverNanos;
    boolean senderExtrapolated;
    boolean receiverExtrapolated;
    double lastRate = Double.NaN;
    int lastPriority = -1;

    FlowState(FlowKey key, FlowId id) {
        this.key = key;
        this.id = id;
    }

    FlowReport best() {
        return fromSender != null ? fromSender : fromReceiver;
    }

    void update(boolean fromSenderSide, FlowReport row, long nowNanos, boolean extrapolated) {
        if (fromSenderSide) {
            fromSender = row;
            senderNanos = nowNanos;
            senderExtrapolated = extrapolated;
        } else {
            fromReceiver = row;
            receiverNanos = nowNanos;
            receiverExtrapolated = extrapolated;
        }
    }

    /**
     * The bytes sent to schedule with at {@code nowNanos}: as reported, or, for a client that suppresses reports,
     * the report extrapolated at its measured rate (the client's report gate sends a new report when that
     * prediction is off by more than its tolerance).
     */
    long sentAt(long nowNanos) {
        FlowReport r = best();
        boolean extrapolated = fromSender != null ? senderExtrapolated : receiverExtrapolated;
        if (!extrapolated) {
            return r.bytesSent();
        }
        long at = fromSender != null ? senderNanos : receiverNanos;
        return Math.round(r.predictedSent((nowNanos - at) / 1e9));
    }
}
