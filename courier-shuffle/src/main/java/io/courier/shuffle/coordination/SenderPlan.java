package io.courier.shuffle.coordination;

import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.SchedulerType;
import io.courier.shuffle.proxy.schedule.FlowBinding;
import io.courier.shuffle.proxy.schedule.SendScheduler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decision for the flows this node sends, with the bindings that tie its flow ids to (job, peer) pairs: what
 * {@link SendScheduler#apply} takes. {@link #NONE} (no decision) lets the sender fall back to its own default
 * (every pair planned by size). {@link #asksSameAs} tells whether two plans ask for the same (the decision's type
 * and what each (job, peer) is given), so an unchanged plan is not re-applied every epoch; it compares the
 * settings by value instead of building a string of them for every plan. Immutable.
 */
final class SenderPlan {
    static final SenderPlan NONE = new SenderPlan(null, Collections.<FlowBinding>emptyList(),
            Collections.<String, String>emptyMap());

    private final Decision decision;
    private final List<FlowBinding> bindings;
    /** Per "job->peer" what it is given ("p" + rank or "r" + rate); empty for {@link #NONE}. */
    private final Map<String, String> settings;

    private SenderPlan(Decision decision, List<FlowBinding> bindings, Map<String, String> settings) {
        this.decision = decision;
        this.bindings = Collections.unmodifiableList(new ArrayList<>(bindings));
        this.settings = settings;
    }

    /** @param settings per binding what it is given (rank or rate), in the bindings' order */
    static SenderPlan of(Decision decision, List<FlowBinding> bindings, Map<String, String> settings) {
        if (bindings.isEmpty()) {
            return NONE;
        }
        return new SenderPlan(decision, bindings, Collections.unmodifiableMap(new HashMap<>(settings)));
    }

    /** Null for "no decision". */
    Decision decision() {
        return decision;
    }

    List<FlowBinding> bindings() {
        return bindings;
    }

    /**
     * Whether {@code other} asks for what this plan asks for: both {@link #NONE}, or decisions of one type giving
     * every (job, peer) the same setting. Flow ids and the coflow order do not count (the sender enforces the
     * per-flow settings).
     */
    boolean asksSameAs(SenderPlan other) {
        if (other == this) {
            return true;
        }
        return other != null && type(decision) == type(other.decision) && settings.equals(other.settings);
    }

    private static SchedulerType type(Decision d) {
        return d == null ? null : d.type();
    }

    void applyTo(SendScheduler scheduler) {
        scheduler.apply(decision, bindings);
    }

    @Override
    public String toString() {
        return "SenderPlan(" + (decision == null ? "none" : decision.type() + new TreeMap<>(settings).toString())
                + ")";
    }
}
