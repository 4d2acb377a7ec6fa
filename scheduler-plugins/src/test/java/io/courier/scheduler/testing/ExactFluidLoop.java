package io.courier.scheduler.testing;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal, exact event loop for scheduler tests (the full simulator is its own module): rates are
 * constant between events, and the next event — an arrival, a flow completion or the scheduler's
 * wake-up — is computed exactly. Order-based decisions are enforced with the scheduler's enforcer.
 * Every applied allocation is checked against port capacities.
 */
public final class ExactFluidLoop {
    private static final int MAX_EVENTS = 1_000_000;

    private ExactFluidLoop() {
    }

    public static Result run(Scenario sc, CoflowScheduler scheduler) {
        return run(sc, scheduler, Double.POSITIVE_INFINITY);
    }

    /** Runs until every coflow completes or time {@code until} is reached. */
    public static Result run(Scenario sc, CoflowScheduler scheduler, double until) {
        Map<FlowId, Flow> flows = new LinkedHashMap<>();
        for (Flow f : sc.flows) {
            flows.put(f.id(), f);
        }
        List<Coflow> pending = new ArrayList<>(sc.coflows);
        pending.sort((a, b) -> a.arrival() != b.arrival() ? Double.compare(a.arrival(), b.arrival())
                : a.id().compareTo(b.id()));
        List<Coflow> active = new ArrayList<>();
        Result result = new Result(sc);
        Map<FlowId, Double> lastRates = new HashMap<>();
        double now = 0;
        int events = 0;
        while (!pending.isEmpty() || !active.isEmpty()) {
            if (++events > MAX_EVENTS) {
                throw new IllegalStateException("no progress after " + MAX_EVENTS + " events at t=" + now);
            }
            while (!pending.isEmpty() && pending.get(0).arrival() <= now + 1e-12) {
                active.add(pending.remove(0));
            }
            if (active.isEmpty()) {
                now = pending.get(0).arrival();
                continue;
            }
            if (now >= until) {
                break;
            }
            ClusterState.Builder b = ClusterState.builder(sc.network).now(now).coflows(active);
            for (Coflow c : active) {
                for (Flow f : flows.values()) {
                    if (f.coflow().equals(c.id())) {
                        Double last = lastRates.get(f.id());
                        b.flow(last == null ? f : f.toBuilder().lastDesiredRate(last).measuredRate(last).build());
                    }
                }
            }
            ClusterState state = b.build();
            ClusterState view = state.viewFor(scheduler.needs());
            Decision d = scheduler.schedule(view);
            double[] rate = OrderEnforcer.rates(state, d, scheduler.enforcement());
            checkCapacity(state, rate, now);
            result.record(now, state, rate, d);
            double wake = scheduler.nextWakeup(view, d);
            double next = until;
            if (!pending.isEmpty()) {
                next = Math.min(next, pending.get(0).arrival());
            }
            if (wake > now + 1e-12) {
                next = Math.min(next, wake);
            }
            for (int i = 0; i < state.flowCount(); i++) {
                Flow f = state.flow(i);
                if (!f.finished() && rate[i] > 1e-15) {
                    next = Math.min(next, now + f.remaining() / rate[i]);
                }
            }
            if (Double.isInfinite(next)) {
                throw new IllegalStateException("deadlock at t=" + now + ": no flow progresses and nothing is due; "
                        + "decision " + d);
            }
            double dt = next - now;
            lastRates.clear();
            for (int i = 0; i < state.flowCount(); i++) {
                Flow f = state.flow(i);
                if (f.finished()) {
                    continue;
                }
                lastRates.put(f.id(), rate[i]);
                double sent = f.sent() + rate[i] * dt;
                boolean done = f.size() - sent <= 1e-7 * Math.max(1.0, f.size());
                Flow.Builder nb = f.toBuilder().sent(done ? f.size() : Math.min(sent, f.size()));
                if (done) {
                    nb.finished(true);
                    result.flowFinish.put(f.id(), next);
                }
                flows.put(f.id(), nb.build());
            }
            now = next;
            for (int c = active.size() - 1; c >= 0; c--) {
                boolean done = true;
                for (Flow f : flows.values()) {
                    if (f.coflow().equals(active.get(c).id()) && !f.finished()) {
                        done = false;
                        break;
                    }
                }
                if (done) {
                    result.cct.put(active.get(c).id(), now - active.get(c).arrival());
                    active.remove(c);
                }
            }
        }
        return result;
    }

    private static void checkCapacity(ClusterState state, double[] rate, double now) {
        double[] used = new double[state.network().resourceCount()];
        for (int i = 0; i < rate.length; i++) {
            if (rate[i] < 0 || Double.isNaN(rate[i])) {
                throw new AssertionError("rate of " + state.flow(i) + " is " + rate[i] + " at t=" + now);
            }
            for (int p : state.resourcesOf(i)) {
                used[p] += rate[i];
            }
        }
        for (int p = 0; p < used.length; p++) {
            if (used[p] > state.network().capacity(p) * (1 + 1e-9) + 1e-12) {
                throw new AssertionError(state.network().resourceName(p) + " over capacity at t=" + now + ": "
                        + used[p] + " > " + state.network().capacity(p));
            }
        }
    }

    /** CCTs, flow finish times and the allocation in force over time. */
    public static final class Result {
        private final Scenario sc;
        final Map<CoflowId, Double> cct = new HashMap<>();
        final Map<FlowId, Double> flowFinish = new HashMap<>();
        private final List<Double> times = new ArrayList<>();
        private final List<Map<FlowId, Double>> allocations = new ArrayList<>();
        private final List<Decision> decisions = new ArrayList<>();

        Result(Scenario sc) {
            this.sc = sc;
        }

        void record(double t, ClusterState state, double[] rate, Decision d) {
            Map<FlowId, Double> m = new HashMap<>();
            for (int i = 0; i < rate.length; i++) {
                if (!state.flow(i).finished()) {
                    m.put(state.flow(i).id(), rate[i]);
                }
            }
            times.add(t);
            allocations.add(m);
            decisions.add(d);
        }

        /** Completion time of a coflow (finish − arrival). */
        public double cct(String coflow) {
            Double v = cct.get(sc.coflow(coflow));
            if (v == null) {
                throw new AssertionError("coflow " + coflow + " did not complete");
            }
            return v;
        }

        /** Absolute finish time of a coflow. */
        public double finish(String coflow) {
            double arrival = 0;
            for (Coflow c : sc.coflows) {
                if (c.id().equals(sc.coflow(coflow))) {
                    arrival = c.arrival();
                }
            }
            return arrival + cct(coflow);
        }

        public double flowFinish(String label) {
            Double v = flowFinish.get(sc.flow(label));
            if (v == null) {
                throw new AssertionError("flow " + label + " did not finish");
            }
            return v;
        }

        /** The rate of a flow in the last allocation decided at or before {@code t} (0 if not active). */
        public double rateAt(double t, String label) {
            int k = indexAt(t);
            Double r = allocations.get(k).get(sc.flow(label));
            return r == null ? 0.0 : r;
        }

        /** The decision taken last at or before {@code t}. */
        public Decision decisionAt(double t) {
            return decisions.get(indexAt(t));
        }

        private int indexAt(double t) {
            int k = -1;
            for (int i = 0; i < times.size(); i++) {
                if (times.get(i) <= t + 1e-9) {
                    k = i;
                }
            }
            if (k < 0) {
                throw new AssertionError("no decision at or before t=" + t);
            }
            return k;
        }

        /** Weighted sum of CCTs. */
        public double weightedCct() {
            double s = 0;
            for (Coflow c : sc.coflows) {
                s += c.weight() * cct(sc.nameOf(c.id()));
            }
            return s;
        }

        public int decisionCount() {
            return times.size();
        }
    }
}
