package io.courier.scheduler.skipl;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.testing.Scenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test scaffolding, not a simulator: the smallest exact environment in which SkipL's congestion
 * detection can be exercised (SCHEDULERS.md §8, "Environment needed to exercise SkipL"). The simulator
 * module will host the general version; until then this lives with the SkipL tests.
 *
 * <p>Besides the scenario's coflows it carries <em>background flows</em>: uncontrolled transfers of a
 * given size over extra links, starting at a given time, with infinite demand. The rates the network
 * actually delivers are the max-min fair share (progressive filling over physical capacities) between the
 * background flows and the coflow flows, whose demand is capped at the rate the scheduler desired. The
 * scheduler sees, per flow, {@code lastDesiredRate} (its previous decision) and {@code measuredRate}, the
 * average delivered rate over the last {@code window} seconds (over the flow's lifetime if shorter; none
 * at its arrival instant). It is called at coflow arrivals, coflow-flow completions and its wake-ups —
 * not at background events, which it can only notice through measurements.
 *
 * <p>Exact and event-driven: rates are constant between events (arrival, background start, any
 * completion, wake-up), whose times are computed in closed form. Every desired and every delivered
 * allocation is checked against the physical capacities.
 */
final class BackgroundTrafficLoop {
    private static final int MAX_EVENTS = 1_000_000;
    private static final double TIME_EPS = 1e-12;

    private final Scenario scenario;
    private final double window;
    private final List<String> bgNames = new ArrayList<>();
    private final List<int[]> bgLinks = new ArrayList<>();
    private final List<Double> bgSizes = new ArrayList<>();
    private final List<Double> bgStarts = new ArrayList<>();

    private BackgroundTrafficLoop(Scenario scenario, double window) {
        this.scenario = scenario;
        this.window = window;
    }

    /** An environment for {@code scenario} whose measurements average over {@code window} seconds. */
    static BackgroundTrafficLoop of(Scenario scenario, double window) {
        if (!(window > 0)) {
            throw new IllegalArgumentException("measurement window must be > 0, got " + window);
        }
        return new BackgroundTrafficLoop(scenario, window);
    }

    /** A background flow of {@code size} bytes over the named extra links, starting at {@code start}. */
    BackgroundTrafficLoop background(String name, double size, double start, String... links) {
        Network n = scenario.network();
        int[] idx = new int[links.length];
        for (int k = 0; k < links.length; k++) {
            idx[k] = -1;
            for (int l = 0; l < n.linkCount(); l++) {
                if (n.linkName(l).equals(links[k])) {
                    idx[k] = n.link(l);
                }
            }
            if (idx[k] < 0) {
                throw new IllegalArgumentException("background " + name + ": unknown link " + links[k]);
            }
        }
        bgNames.add(name);
        bgLinks.add(idx);
        bgSizes.add(size);
        bgStarts.add(start);
        return this;
    }

    /** Called after every decision, e.g. to record the scheduler's link estimates. */
    interface Probe {
        void afterDecision(double now, ClusterState state, Decision decision);
    }

    Result run(CoflowScheduler scheduler) {
        return run(scheduler, (now, state, d) -> { });
    }

    Result run(CoflowScheduler scheduler, Probe probe) {
        if (scheduler.type() != SchedulerType.RATE_BASED) {
            throw new IllegalArgumentException("BackgroundTrafficLoop drives rate-based schedulers only");
        }
        Network net = scenario.network();
        List<Flow> flows = scenario.flows();
        int nf = flows.size();
        int nb = bgNames.size();
        Map<CoflowId, Coflow> coflowById = new HashMap<>();
        for (Coflow c : scenario.coflows()) {
            coflowById.put(c.id(), c);
        }
        int[][] res = new int[nf + nb][];
        double[] size = new double[nf + nb];
        double[] start = new double[nf + nb];
        for (int i = 0; i < nf; i++) {
            Flow f = flows.get(i);
            int[] path = f.path();
            res[i] = new int[2 + path.length];
            res[i][0] = net.up(f.src());
            res[i][1] = net.down(f.dst());
            for (int k = 0; k < path.length; k++) {
                res[i][2 + k] = net.link(path[k]);
            }
            size[i] = f.size();
            start[i] = coflowById.get(f.coflow()).arrival();
        }
        for (int b = 0; b < nb; b++) {
            res[nf + b] = bgLinks.get(b);
            size[nf + b] = bgSizes.get(b);
            start[nf + b] = bgStarts.get(b);
        }
        double[] sent = new double[nf + nb];
        boolean[] started = new boolean[nf + nb];
        boolean[] done = new boolean[nf + nb];
        double[] desired = new double[nf];
        boolean[] hasDesired = new boolean[nf];
        double[] actual = new double[nf + nb];
        List<List<double[]>> history = new ArrayList<>(); // per coflow flow: (time, sent) breakpoints
        for (int i = 0; i < nf; i++) {
            history.add(new ArrayList<double[]>());
        }
        Result result = new Result();
        double now = 0;
        double wake = Double.POSITIVE_INFINITY;
        boolean callScheduler = false;
        for (int events = 0; ; events++) {
            if (events > MAX_EVENTS) {
                throw new IllegalStateException("no progress after " + MAX_EVENTS + " events at t=" + now);
            }
            for (int i = 0; i < nf + nb; i++) {
                if (!started[i] && start[i] <= now + TIME_EPS) {
                    started[i] = true;
                    if (i < nf) {
                        history.get(i).add(new double[] {now, 0.0});
                        callScheduler = true;
                    }
                }
            }
            if (wake <= now + TIME_EPS) {
                callScheduler = true;
            }
            List<Coflow> active = activeCoflows(flows, coflowById, started, done);
            boolean coflowsPending = false;
            for (int i = 0; i < nf; i++) {
                coflowsPending |= !done[i];
            }
            if (!coflowsPending) {
                break;
            }
            if (callScheduler && !active.isEmpty()) {
                ClusterState state = buildState(net, active, flows, started, done, sent, desired, hasDesired,
                        history, now);
                Decision d = scheduler.schedule(state.viewFor(scheduler.needs()));
                for (int i = 0; i < nf; i++) {
                    if (started[i] && !done[i]) {
                        desired[i] = d.rateOf(flows.get(i).id());
                        hasDesired[i] = true;
                    }
                }
                checkCapacity(net, res, desired, nf, now, "desired");
                result.times.add(now);
                result.decisions.add(d);
                probe.afterDecision(now, state, d);
                wake = scheduler.nextWakeup(state, d);
                if (wake <= now + TIME_EPS) {
                    wake = Double.POSITIVE_INFINITY; // a wake-up in the past would re-trigger at every event
                }
            }
            callScheduler = false;
            // Delivered rates: max-min between uncontrolled background and desired-capped coflow flows.
            double[] demand = new double[nf + nb];
            for (int i = 0; i < nf + nb; i++) {
                boolean live = started[i] && !done[i];
                demand[i] = !live ? 0.0 : i < nf ? desired[i] : Double.POSITIVE_INFINITY;
            }
            maxMin(net, res, demand, actual);
            checkCapacity(net, res, actual, nf + nb, now, "delivered");
            double next = Double.POSITIVE_INFINITY;
            for (int i = 0; i < nf + nb; i++) {
                if (!started[i]) {
                    next = Math.min(next, start[i]);
                } else if (!done[i] && actual[i] > 0) {
                    next = Math.min(next, now + (size[i] - sent[i]) / actual[i]);
                }
            }
            if (wake > now + TIME_EPS) {
                next = Math.min(next, wake);
            }
            if (Double.isInfinite(next)) {
                throw new IllegalStateException("deadlock at t=" + now + ": nothing progresses and nothing is due");
            }
            double dt = next - now;
            for (int i = 0; i < nf + nb; i++) {
                if (!started[i] || done[i]) {
                    continue;
                }
                sent[i] = Math.min(size[i], sent[i] + actual[i] * dt);
                if (size[i] - sent[i] <= 1e-7 * Math.max(1.0, size[i])) {
                    sent[i] = size[i];
                    done[i] = true;
                    if (i < nf) {
                        result.flowFinish.put(flows.get(i).id().value(), next);
                        desired[i] = 0.0;
                        callScheduler = true;
                    } else {
                        result.backgroundFinish.put(bgNames.get(i - nf), next);
                    }
                }
                if (i < nf) {
                    history.get(i).add(new double[] {next, sent[i]});
                }
            }
            now = next;
            for (Coflow c : active) {
                if (!activeCoflows(flows, coflowById, started, done).contains(c)) {
                    result.coflowFinish.put(c.id(), now);
                }
            }
        }
        return result;
    }

    private static List<Coflow> activeCoflows(List<Flow> flows, Map<CoflowId, Coflow> byId, boolean[] started,
            boolean[] done) {
        List<Coflow> out = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            Coflow c = byId.get(flows.get(i).coflow());
            if (started[i] && !done[i] && !out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private ClusterState buildState(Network net, List<Coflow> active, List<Flow> flows, boolean[] started,
            boolean[] done, double[] sent, double[] desired, boolean[] hasDesired, List<List<double[]>> history,
            double now) {
        ClusterState.Builder b = ClusterState.builder(net).now(now).coflows(active);
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            Coflow c = null;
            for (Coflow a : active) {
                if (a.id().equals(f.coflow())) {
                    c = a;
                }
            }
            if (c == null || !started[i]) {
                continue;
            }
            Flow.Builder fb = f.toBuilder().sent(sent[i]).finished(done[i]);
            if (hasDesired[i]) {
                fb.lastDesiredRate(desired[i]);
            }
            double from = Math.max(now - window, c.arrival());
            if (now - from > TIME_EPS) {
                fb.measuredRate(Math.max(0.0, (sent[i] - sentAt(history.get(i), from)) / (now - from)));
            }
            b.flow(fb.build());
        }
        return b.build();
    }

    /** Bytes sent by {@code t}, interpolated between breakpoints (rates are constant in between). */
    private static double sentAt(List<double[]> h, double t) {
        for (int k = h.size() - 1; k >= 0; k--) {
            double[] p = h.get(k);
            if (p[0] <= t) {
                if (k == h.size() - 1) {
                    return p[1];
                }
                double[] q = h.get(k + 1);
                return q[0] == p[0] ? q[1] : p[1] + (q[1] - p[1]) * (t - p[0]) / (q[0] - p[0]);
            }
        }
        return 0.0;
    }

    /** Progressive filling (P1 of SCHEDULERS.md §0.5) over explicit resource lists with demand caps. */
    static void maxMin(Network net, int[][] res, double[] demand, double[] x) {
        double eps = net.rateEpsilon();
        double[] r = net.capacities();
        int n = res.length;
        boolean[] on = new boolean[n];
        for (int i = 0; i < n; i++) {
            x[i] = 0;
            on[i] = demand[i] > eps && roomOn(res[i], r, eps);
        }
        while (true) {
            int[] count = new int[r.length];
            boolean any = false;
            for (int i = 0; i < n; i++) {
                if (on[i]) {
                    any = true;
                    for (int p : res[i]) {
                        count[p]++;
                    }
                }
            }
            if (!any) {
                return;
            }
            double step = Double.POSITIVE_INFINITY;
            for (int p = 0; p < r.length; p++) {
                if (count[p] > 0) {
                    step = Math.min(step, r[p] / count[p]);
                }
            }
            for (int i = 0; i < n; i++) {
                if (on[i]) {
                    step = Math.min(step, demand[i] - x[i]);
                }
            }
            for (int i = 0; i < n; i++) {
                if (on[i]) {
                    x[i] += step;
                }
            }
            for (int p = 0; p < r.length; p++) {
                r[p] = Math.max(0.0, r[p] - step * count[p]);
            }
            for (int i = 0; i < n; i++) {
                if (on[i] && (demand[i] - x[i] <= eps || !roomOn(res[i], r, eps))) {
                    on[i] = false;
                }
            }
        }
    }

    private static boolean roomOn(int[] res, double[] r, double eps) {
        for (int p : res) {
            if (r[p] <= eps) {
                return false;
            }
        }
        return true;
    }

    private static void checkCapacity(Network net, int[][] res, double[] rate, int n, double now, String what) {
        double[] used = new double[net.resourceCount()];
        for (int i = 0; i < n; i++) {
            for (int p : res[i]) {
                used[p] += rate[i];
            }
        }
        for (int p = 0; p < used.length; p++) {
            if (used[p] > net.capacity(p) * (1 + 1e-9) + 1e-12) {
                throw new AssertionError(what + " rates exceed the capacity of " + net.resourceName(p) + " at t="
                        + now + ": " + used[p] + " > " + net.capacity(p));
            }
        }
    }

    /** Absolute finish times and the decisions taken. */
    static final class Result {
        final Map<CoflowId, Double> coflowFinish = new HashMap<>();
        final Map<Long, Double> flowFinish = new HashMap<>();
        final Map<String, Double> backgroundFinish = new HashMap<>();
        private final List<Double> times = new ArrayList<>();
        private final List<Decision> decisions = new ArrayList<>();

        double coflowFinish(CoflowId id) {
            Double t = coflowFinish.get(id);
            if (t == null) {
                throw new AssertionError(id + " did not complete");
            }
            return t;
        }

        double flowFinish(long flowId) {
            Double t = flowFinish.get(flowId);
            if (t == null) {
                throw new AssertionError("flow-" + flowId + " did not complete");
            }
            return t;
        }

        /** Times at which the scheduler was called. */
        List<Double> decisionTimes() {
            return times;
        }

        double backgroundFinish(String name) {
            Double t = backgroundFinish.get(name);
            if (t == null) {
                throw new AssertionError("background flow " + name + " did not complete before the coflows");
            }
            return t;
        }

        /** The decision in force at {@code t} (the last one taken at or before it). */
        Decision decisionAt(double t) {
            Decision d = null;
            for (int k = 0; k < times.size(); k++) {
                if (times.get(k) <= t + 1e-9) {
                    d = decisions.get(k);
                }
            }
            if (d == null) {
                throw new AssertionError("no decision at or before t=" + t);
            }
            return d;
        }
    }
}
