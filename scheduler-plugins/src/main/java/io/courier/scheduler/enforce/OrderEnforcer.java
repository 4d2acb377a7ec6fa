package io.courier.scheduler.enforce;

import io.courier.scheduler.CoflowScheduler.Enforcement;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.GreedyTopUp;
import io.courier.scheduler.primitives.MaxMin;
import io.courier.scheduler.primitives.OpenHostPorts;
import io.courier.scheduler.primitives.ToppedFlows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns an order-based decision into per-flow rates with the enforcers of SCHEDULERS.md §0.3.
 * Both are work-conserving and order-preserving. Active coflows that the order leaves out are served
 * after the ordered ones, in (arrival, id) order, so that a partial order never starves anything silently.
 */
public final class OrderEnforcer {
    private OrderEnforcer() {
    }

    /**
     * Rates indexed like {@code state.flows()} (finished flows get 0). For a rate-based decision the
     * decision's own rates are returned.
     */
    public static double[] rates(ClusterState state, Decision decision, Enforcement enforcement) {
        if (decision.type() == SchedulerType.RATE_BASED) {
            return decision.ratesIndexedLike(state);
        }
        return rates(state, decision, enforcement, new double[state.flowCount()]);
    }

    /**
     * {@link #rates(ClusterState, Decision, Enforcement)} written into {@code buffer[0..state.flowCount())}
     * (which must be that long; entries past it are left alone), for a driver that reuses one array across
     * decisions. Returns {@code buffer}.
     */
    public static double[] rates(ClusterState state, Decision decision, Enforcement enforcement, double[] buffer) {
        int n = state.flowCount();
        if (buffer.length < n) {
            throw new IllegalArgumentException("rate buffer has room for " + buffer.length + " of " + n + " flows");
        }
        if (decision.type() == SchedulerType.RATE_BASED) {
            decision.ratesIndexedLike(state, buffer);
            return buffer;
        }
        double[] rate = buffer;
        double[] known = decision.enforced(enforcement, state);
        if (known != null) {
            System.arraycopy(known, 0, rate, 0, n);
            return rate;
        }
        Arrays.fill(rate, 0, n, 0.0);
        double[] residual = state.residualCapacities(false);
        if (enforcement == Enforcement.PRIORITY_GREEDY) {
            greedy(state, decision, residual, rate, null);
        } else {
            // Strict priority classes; TCP-like max-min sharing inside a class. Unclassified flows go last.
            int[] priority = decision.prioritiesIndexedLike(state);
            for (int[] members : classesInOrder(priority, state.unfinishedFlows())) {
                MaxMin.fill(state, members, residual, null, rate);
            }
            // Max-min over every running class is the costly enforcement: a scheduler that enforced its decision
            // itself (Stream's proof) leaves the rates for the driver, which enforces it on the same snapshot next.
            decision.noteEnforced(enforcement, state, rate, n);
        }
        return rate;
    }

    /**
     * The flows of {@code open} (ascending) by class: classes ascending, unclassified ({@code priority < 0}) last, flows
     * ascending inside each — the lists a sorted map of lists would give, without boxing every flow. Classes are few
     * and small (Stream's 0..K-1), so a counting pass places them; a wide spread of class numbers is sorted instead.
     */
    static List<int[]> classesInOrder(int[] priority, int[] open) {
        List<int[]> out = new ArrayList<>();
        if (open.length == 0) {
            return out;
        }
        int lo = Integer.MAX_VALUE; // the lowest and highest real class; top stays -1 when every flow is unclassified
        int top = -1;
        boolean unclassified = false;
        for (int f : open) {
            int k = priority[f];
            if (k < 0) {
                unclassified = true;
            } else {
                lo = Math.min(lo, k);
                top = Math.max(top, k);
            }
        }
        if (top >= 0 && (long) top - lo > 4096) {
            return sortedClasses(priority, open);
        }
        int classes = (top < 0 ? 0 : top - lo + 1) + (unclassified ? 1 : 0);
        int[] count = new int[classes];
        for (int f : open) {
            count[slot(priority[f], lo, classes)]++;
        }
        int[][] members = new int[classes][];
        for (int k = 0; k < classes; k++) {
            members[k] = new int[count[k]];
            count[k] = 0;
        }
        for (int f : open) {
            int k = slot(priority[f], lo, classes);
            members[k][count[k]++] = f;
        }
        for (int[] m : members) {
            if (m.length > 0) {
                out.add(m);
            }
        }
        return out;
    }

    /** The counting slot of a class: its offset from the lowest, unclassified flows in the last slot. */
    private static int slot(int priority, int lo, int classes) {
        return priority < 0 ? classes - 1 : priority - lo;
    }

    /** {@link #classesInOrder} by sorting (class, flow) keys, for class numbers too far apart to count. */
    private static List<int[]> sortedClasses(int[] priority, int[] open) {
        long[] keyed = new long[open.length];
        for (int j = 0; j < open.length; j++) {
            int f = open[j];
            long k = priority[f] < 0 ? Integer.MAX_VALUE : priority[f];
            keyed[j] = k << 32 | f;
        }
        Arrays.sort(keyed);
        List<int[]> out = new ArrayList<>();
        for (int from = 0; from < keyed.length; ) {
            long k = keyed[from] >>> 32;
            int to = from + 1;
            while (to < keyed.length && keyed[to] >>> 32 == k) {
                to++;
            }
            int[] fs = new int[to - from];
            for (int j = from; j < to; j++) {
                fs[j - from] = (int) keyed[j];
            }
            out.add(fs);
            from = to;
        }
        return out;
    }

    /**
     * E1 ({@link Enforcement#PRIORITY_GREEDY}) for an order-based decision, into {@code zeroed}, which must hold 0 at
     * every index below {@code state.flowCount()}: the rates {@link #rates(ClusterState, Decision, Enforcement,
     * double[])} gives, and in {@code topped} (cleared first) the flows with a positive rate — for a driver that keeps
     * its rate buffer at 0 between decisions and then resets only those, rather than filling and scanning every
     * flow's entry (a few hundred flows run among hundreds of thousands).
     */
    public static void greedyRates(ClusterState state, Decision decision, double[] zeroed, ToppedFlows topped) {
        if (decision.type() != SchedulerType.ORDER_BASED) {
            throw new IllegalArgumentException("greedy enforcement needs an order-based decision, got "
                    + decision.type());
        }
        if (zeroed.length < state.flowCount()) {
            throw new IllegalArgumentException("rate buffer has room for " + zeroed.length + " of "
                    + state.flowCount() + " flows");
        }
        topped.clear();
        greedy(state, decision, state.residualCapacities(false), zeroed, topped);
    }

    private static void greedy(ClusterState state, Decision decision, double[] residual, double[] rate,
            ToppedFlows topped) {
        OpenHostPorts open = new OpenHostPorts(state.network(), residual);
        for (int c : coflowsInOrder(state, decision)) {
            if (open.exhausted()) {
                break; // every later coflow would find a spent port on each of its flows
            }
            GreedyTopUp.applyToCoflow(state, c, open, rate, topped);
        }
    }

    /** Coflow indices in decision order, then the active coflows the order does not mention. */
    static int[] coflowsInOrder(ClusterState state, Decision decision) {
        int[] out = new int[state.coflowCount()];
        boolean[] seen = new boolean[state.coflowCount()];
        int n = 0;
        for (CoflowId id : decision.coflowOrder()) {
            int c = state.indexOf(id);
            if (c >= 0 && !seen[c]) {
                seen[c] = true;
                out[n++] = c;
            }
        }
        for (int c = 0; c < state.coflowCount(); c++) {
            if (!seen[c]) {
                out[n++] = c;
            }
        }
        return out;
    }
}
