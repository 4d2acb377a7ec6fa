package io.courier.coordinator.actors;

import io.courier.coordinator.protocol.FlowDecision;
import java.util.Collections;
import java.util.List;

/**
 * The scheduling actor's memory of one registered node between epochs: when it last reported, when it was last
 * told anything (a decision update or a report acknowledgement — either is the client's heartbeat), and the
 * decisions it holds (the last update sent), so that a node is sent an update only when its decisions change.
 * Mutable; owned by the scheduling actor's thread.
 */
final class NodeSession {
    /** A rate change below this fraction of the rate is not worth an update (the pacer's own error is larger). */
    static final double RATE_TOLERANCE = 0.01;

    long lastReportNanos = -1;
    long lastToldNanos = -1;
    List<FlowDecision> held = Collections.emptyList();
    boolean heldOrderBased;

    boolean toldWithin(long now, long intervalNanos) {
        return lastToldNanos >= 0 && now - lastToldNanos < intervalNanos;
    }

    /**
     * Whether {@code next} differs from what the node holds: other flows (in the same order, which the scheduling
     * actor keeps stable), another priority or rank, a switch between order- and rate-based, or a rate that moved
     * by more than {@link #RATE_TOLERANCE} of itself.
     */
    boolean differs(List<FlowDecision> next, boolean orderBased) {
        if (orderBased != heldOrderBased || next.size() != held.size()) {
            return true;
        }
        for (int i = 0; i < next.size(); i++) {
            FlowDecision a = held.get(i);
            FlowDecision b = next.get(i);
            if (a.priority() != b.priority() || a.coflowRank() != b.coflowRank() || !a.jobId().equals(b.jobId())
                    || !a.srcNode().equals(b.srcNode()) || !a.dstNode().equals(b.dstNode())
                    || Math.abs(a.rate() - b.rate()) > RATE_TOLERANCE * Math.max(Math.abs(a.rate()), Math.abs(b.rate()))) {
                return true;
            }
        }
        return false;
    }
}
