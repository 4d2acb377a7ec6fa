package io.courier.scheduler.bench;

import io.courier.simulator.trace.CoflowTrace;
import io.courier.simulator.trace.TraceCoflow;
import io.courier.simulator.trace.TraceFlow;
import io.courier.simulator.trace.TraceFlows;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the busiest instant of a trace under a simple, deterministic load model, so that a benchmark can
 * reproduce a cluster state as crowded as the trace ever gets without running a simulator.
 *
 * <p><b>Model (decoupled FIFO ports).</b> Flows are built the CoflowSim way
 * ({@link TraceFlows.Sizing#COFLOWSIM}). Every port serves the bytes coflows put on it first-come
 * first-served at full capacity, independently of the other ports; a coflow is active from its arrival
 * until the last of its ports has served its bytes. Because real schedules couple the two ports of every
 * flow, this under-estimates how long coflows stay — it is a lower bound on the backlog of a FIFO-like
 * schedule, not a prediction of any particular scheduler.
 *
 * <p><b>Instant.</b> Among the arrival instants (the active set only grows at arrivals), the one with the
 * most active coflows; ties go to more flows, then to the earlier instant. A coflow counts as active at
 * {@code t} when {@code arrival <= t < end}. Its elapsed fraction is {@code (t - arrival) / (end - arrival)}.
 */
public final class BusiestInstant {
    private final double instant;
    private final List<ActiveCoflow> active;
    private final long flowCount;

    private BusiestInstant(double instant, List<ActiveCoflow> active, long flowCount) {
        this.instant = instant;
        this.active = active;
        this.flowCount = flowCount;
    }

    /** The busiest instant of {@code trace} on ports of {@code capacity} bytes/s. */
    public static BusiestInstant of(CoflowTrace trace, double capacity) {
        if (!(capacity > 0) || Double.isInfinite(capacity)) {
            throw new IllegalArgumentException("port capacity must be finite and > 0, got " + capacity);
        }
        if (trace.coflows().isEmpty()) {
            throw new IllegalArgumentException(trace.source() + " has no coflows, so it has no busiest instant");
        }
        List<TraceCoflow> byArrival = new ArrayList<>(trace.coflows());
        byArrival.sort(Comparator.comparingLong(TraceCoflow::arrivalMillis).thenComparingLong(TraceCoflow::id));
        int n = byArrival.size();
        double[] arrival = new double[n];
        double[] end = new double[n];
        long[] flows = new long[n];
        double[] upFree = new double[trace.racks()];
        double[] downFree = new double[trace.racks()];
        for (int i = 0; i < n; i++) {
            TraceCoflow c = byArrival.get(i);
            arrival[i] = c.arrivalSeconds();
            double[] up = new double[trace.racks()];
            double[] down = new double[trace.racks()];
            List<TraceFlow> fs = TraceFlows.expand(c, TraceFlows.Sizing.COFLOWSIM);
            for (TraceFlow f : fs) {
                up[f.mapperRack()] += f.bytes();
                down[f.reducerRack()] += f.bytes();
            }
            flows[i] = fs.size();
            double e = arrival[i];
            for (int p = 0; p < up.length; p++) {
                if (up[p] > 0) {
                    upFree[p] = Math.max(upFree[p], arrival[i]) + up[p] / capacity;
                    e = Math.max(e, upFree[p]);
                }
                if (down[p] > 0) {
                    downFree[p] = Math.max(downFree[p], arrival[i]) + down[p] / capacity;
                    e = Math.max(e, downFree[p]);
                }
            }
            end[i] = e;
        }
        int best = -1;
        int bestCoflows = -1;
        long bestFlows = -1;
        for (int k = 0; k < n; k++) {
            double t = arrival[k];
            int coflows = 0;
            long fl = 0;
            for (int i = 0; i < n && arrival[i] <= t; i++) {
                if (t < end[i]) {
                    coflows++;
                    fl += flows[i];
                }
            }
            // Strictly greater: among equals the earlier instant (smaller k) wins.
            if (coflows > bestCoflows || (coflows == bestCoflows && fl > bestFlows)) {
                best = k;
                bestCoflows = coflows;
                bestFlows = fl;
            }
        }
        double t = arrival[best];
        List<ActiveCoflow> active = new ArrayList<>();
        for (int i = 0; i < n && arrival[i] <= t; i++) {
            if (t < end[i]) {
                // t < end, but rounding could still make the ratio 1.0; an active coflow has not finished.
                double elapsed = Math.min((t - arrival[i]) / (end[i] - arrival[i]), Math.nextDown(1.0));
                active.add(new ActiveCoflow(byArrival.get(i), elapsed));
            }
        }
        return new BusiestInstant(t, Collections.unmodifiableList(active), bestFlows);
    }

    /** The chosen instant, in trace seconds. */
    public double instant() {
        return instant;
    }

    /** The coflows active at {@link #instant()}, ordered by (arrival, id). */
    public List<ActiveCoflow> active() {
        return active;
    }

    /** Number of flows (CoflowSim construction) of the active coflows, finished or not. */
    public long flowCount() {
        return flowCount;
    }
}
