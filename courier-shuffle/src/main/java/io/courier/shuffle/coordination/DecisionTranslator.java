package io.courier.shuffle.coordination;

import io.courier.coordinator.protocol.DecisionUpdate;
import io.courier.coordinator.protocol.FlowDecision;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.ReceivePlan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the coordinator's {@link DecisionUpdate} into the {@link SenderPlan} of this node: only the flows this
 * node sends ({@code src == self}); rate-based updates become rates (bytes/s) per (job, peer), order-based ones a
 * strict priority per (job, peer) — the flow's priority class, or its coflow's rank when the scheduler gave no
 * class — and the coflow order by rank. The {@link io.courier.shuffle.proxy.schedule.SendScheduler} then merges
 * and selects (Merge, SelectAndSplit) as it does for any decision. Pure apart from the shared {@link FlowIds}.
 */
final class DecisionTranslator {
    private final String self;

    DecisionTranslator(String self) {
        this.self = self;
    }

    SenderPlan translate(DecisionUpdate update, FlowIds ids) {
        List<FlowBinding> bindings = new ArrayList<>();
        Map<String, String> settings = new LinkedHashMap<>();
        Map<FlowId, Double> rates = new HashMap<>();
        Map<FlowId, Integer> priorities = new HashMap<>();
        TreeMap<Integer, List<CoflowId>> byRank = new TreeMap<>();
        Map<CoflowId, Boolean> ordered = new HashMap<>();
        for (FlowDecision d : update.flows()) {
            if (!d.srcNode().equals(self)) {
                continue; // decisions for flows this node receives: the sender enforces them
            }
            FlowId id = ids.flow(d.jobId(), d.dstNode());
            bindings.add(new FlowBinding(id, d.jobId(), d.dstNode()));
            String key = d.jobId() + "->" + d.dstNode();
            if (update.orderBased()) {
                int rank = d.priority() >= 0 ? d.priority() : Math.max(0, d.coflowRank());
                priorities.put(id, rank);
                settings.put(key, "p" + rank);
                CoflowId c = ids.coflow(d.jobId());
                if (ordered.put(c, Boolean.TRUE) == null) {
                    int coflowRank = d.coflowRank() >= 0 ? d.coflowRank() : rank;
                    List<CoflowId> l = byRank.get(coflowRank);
                    if (l == null) {
                        l = new ArrayList<>();
                        byRank.put(coflowRank, l);
                    }
                    l.add(c);
                }
            } else {
                rates.put(id, d.rate());
                settings.put(key, "r" + d.rate());
            }
        }
        if (bindings.isEmpty()) {
            return SenderPlan.NONE;
        }
        if (!update.orderBased()) {
            return SenderPlan.of(Decision.ofRates(rates), bindings, settings);
        }
        List<CoflowId> order = new ArrayList<>();
        for (List<CoflowId> l : byRank.values()) {
            order.addAll(l);
        }
        return SenderPlan.of(Decision.ofOrder(order, priorities), bindings, settings);
    }

    /**
     * The receiving half of {@code update}: for the flows this node fetches ({@code dst == self}) the same rank
     * (order-based: the flow's priority class, else its coflow's rank) or rate (rate-based) the sender enforces,
     * per (job, source proxy), so that this node's receive buffer goes to the flows the schedule prefers.
     */
    ReceivePlan receivePlan(DecisionUpdate update) {
        ReceivePlan.Builder b = ReceivePlan.builder();
        for (FlowDecision d : update.flows()) {
            if (!d.dstNode().equals(self) || d.srcNode().equals(self)) {
                continue;
            }
            if (update.orderBased()) {
                b.rank(d.jobId(), d.srcNode(), d.priority() >= 0 ? d.priority() : Math.max(0, d.coflowRank()));
            } else {
                b.rate(d.jobId(), d.srcNode(), d.rate());
            }
        }
        return b.build();
    }
}
