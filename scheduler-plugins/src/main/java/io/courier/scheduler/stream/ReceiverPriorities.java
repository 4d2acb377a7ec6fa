package io.courier.scheduler.stream;

import io.courier.scheduler.model.CoflowId;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state one receiver keeps for Stream (SCHEDULERS.md §7, per-epoch procedure): for every sub-coflow ending
 * here, its level {@code ℓ}, the last formula level that demoted it {@code φ_prev}, and when its stall began.
 * It needs nothing but this receiver's own observations, so a proxy runs one per receiver; the simulator's
 * {@link StreamScheduler} keeps one per receiving host.
 *
 * <p>Mutable and not thread-safe: one owner calls {@link #update} once per epoch, with non-decreasing times.
 */
public final class ReceiverPriorities {
    private final String receiver;
    private final StreamPriority formula;
    private final StarvationAging aging;
    private Map<CoflowId, SubCoflowState> states = new HashMap<>();
    private double lastUpdate = Double.NaN;

    /**
     * @param receiver a name for error messages (host name or address)
     * @param formula  the priority formula
     * @param aging    the starvation rule, {@link StarvationAging#off()} for none
     */
    public ReceiverPriorities(String receiver, StreamPriority formula, StarvationAging aging) {
        if (formula == null || aging == null) {
            throw new IllegalArgumentException("Stream receiver " + receiver + ": formula and aging must not be null");
        }
        this.receiver = receiver;
        this.formula = formula;
        this.aging = aging;
    }

    /**
     * One epoch: applies the formula to every observed sub-coflow, demotes (never promotes) its level, applies the
     * optional starvation promotion, and forgets every sub-coflow not in {@code observations} (its coflow finished
     * or no longer sends here). Returns the effective level of each observed sub-coflow, in observation order.
     */
    public Map<CoflowId, Integer> update(double now, List<SubCoflowObservation> observations) {
        if (!Double.isFinite(now) || now < lastUpdate) {
            throw new IllegalArgumentException("Stream receiver " + receiver + ": epoch time must be finite and not "
                    + "before the previous epoch (" + lastUpdate + "), got " + now);
        }
        Set<CoflowId> seen = new HashSet<>(observations.size() * 2);
        for (SubCoflowObservation o : observations) {
            // Checked before any state changes, so a rejected epoch leaves the receiver as it was.
            if (!seen.add(o.coflow())) {
                throw new IllegalArgumentException("Stream receiver " + receiver + ": " + o.coflow()
                        + " observed twice in one epoch; a receiver has one sub-coflow per coflow");
            }
        }
        Map<CoflowId, SubCoflowState> next = new HashMap<>(observations.size() * 2);
        Map<CoflowId, Integer> levels = new LinkedHashMap<>(observations.size() * 2);
        for (SubCoflowObservation o : observations) {
            SubCoflowState st = states.get(o.coflow());
            if (st == null) {
                st = new SubCoflowState(); // a new sub-coflow starts in the highest class
            }
            next.put(o.coflow(), st);
            int phi = formula.level(o, st.level);
            // Demotion only ("P_f = max(P_f, P'_f)" [resolved]): packets of a flow never overtake each other.
            if (phi > st.previousFormulaLevel) {
                st.level = Math.max(st.level, phi);
                st.previousFormulaLevel = phi;
            }
            int steps = 0;
            if (aging.enabled() && o.stalled()) {
                if (Double.isNaN(st.stalledSince)) {
                    // "Nothing since the previous epoch": the stall began no later than that epoch.
                    st.stalledSince = Double.isNaN(lastUpdate) ? now : lastUpdate;
                }
                steps = aging.steps(now - st.stalledSince);
            } else {
                st.stalledSince = Double.NaN;
            }
            st.effective = Math.max(0, st.level - steps);
            levels.put(o.coflow(), st.effective);
        }
        states = next;
        lastUpdate = now;
        return Collections.unmodifiableMap(levels);
    }

    /** The level its flows are sent with now (after any starvation promotion); 0 for an unknown sub-coflow. */
    public int levelOf(CoflowId coflow) {
        SubCoflowState st = states.get(coflow);
        return st == null ? 0 : st.effective;
    }

    /** {@code ℓ(c,r)}, the demoted level without starvation promotion; 0 for an unknown sub-coflow. */
    public int demotedLevelOf(CoflowId coflow) {
        SubCoflowState st = states.get(coflow);
        return st == null ? 0 : st.level;
    }

    /** {@code φ_prev(c,r)}; 0 for an unknown sub-coflow. */
    public int previousFormulaLevelOf(CoflowId coflow) {
        SubCoflowState st = states.get(coflow);
        return st == null ? 0 : st.previousFormulaLevel;
    }

    public boolean knows(CoflowId coflow) {
        return states.containsKey(coflow);
    }

    /** Number of sub-coflows with state here. */
    public int size() {
        return states.size();
    }

    public String receiver() {
        return receiver;
    }

    @Override
    public String toString() {
        return "ReceiverPriorities(" + receiver + ", " + states.size() + " sub-coflows)";
    }

    private static final class SubCoflowState {
        int level;
        int previousFormulaLevel;
        int effective;
        double stalledSince = Double.NaN;
    }
}
