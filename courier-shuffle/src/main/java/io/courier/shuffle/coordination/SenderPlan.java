package io.courier.shuffle.coordination;

import io.courier.scheduler.model.Decision;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.SendScheduler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decision for the flows this node sends, with the bindings that tie its flow ids to (job, peer) pairs: what
 * {@link SendScheduler#apply} takes. {@link #NONE} (no decision) lets the sender fall back to its own default
 * (every pair planned by size). {@link #signature()} names what the plan asks for, so an unchanged plan is not
 * re-applied every epoch. Immutable.
 */
final class SenderPlan {
    static final SenderPlan NONE = new SenderPlan(null, Collections.<FlowBinding>emptyList(), "none");

    private final Decision decision;
    private final List<FlowBinding> bindings;
    private final String signature;

    private SenderPlan(Decision decision, List<FlowBinding> bindings, String signature) {
        this.decision = decision;
        this.bindings = Collections.unmodifiableList(new ArrayList<>(bindings));
        this.signature = signature;
    }

    /** @param settings per binding what it is given (rank or rate), in the bindings' order */
    static SenderPlan of(Decision decision, List<FlowBinding> bindings, Map<String, String> settings) {
        if (bindings.isEmpty()) {
            return NONE;
        }
        return new SenderPlan(decision, bindings, decision.type() + new TreeMap<>(settings).toString());
    }

    /** Null for "no decision". */
    Decision decision() {
        return decision;
    }

    List<FlowBinding> bindings() {
        return bindings;
    }

    String signature() {
        return signature;
    }

    void applyTo(SendScheduler scheduler) {
        scheduler.apply(decision, bindings);
    }

    @Override
    public String toString() {
        return "SenderPlan(" + signature + ")";
    }
}
