package io.courier.scheduler.fai;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.DecidedCrossing;
import io.courier.scheduler.primitives.LasQueues;
import io.courier.scheduler.primitives.QueueAllocation;
import io.courier.scheduler.primitives.QuietInterval;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Fai (SCHEDULERS.md §6, seed 001): non-clairvoyant, bottleneck-aware LAS. Every decision runs three steps:
 * <ol>
 *   <li>the LAS queue allocation of Aalo (§4 lines 1–5, strict priority) or Fai's weighted variant
 *       (Alg. 1, {@code w_q = K − q}), queues from the bytes each coflow has sent (P7);</li>
 *   <li>{@link Mbab}: in a coflow whose least-progressed flow is also its slowest, cut every flow to that
 *       rate and return the excess (Alg. 2);</li>
 *   <li>{@link RemainingBandwidth}: give the freed bandwidth to coflows in strict priority order (Alg. 3).</li>
 * </ol>
 * It never reads flow sizes. Its decisions use no state kept between calls (queues are derived from bytes
 * sent); it remembers only, for {@link #skipWakeup}, until when its last decision provably stands, and that
 * decision's next queue crossing for {@link #nextWakeup}, so one instance belongs to one driver (one thread).
 */
public final class FaiScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "fai";

    /** How queues share a port in step 1. */
    public enum InterQueue {
        /** Strict priority across queues ([code] Fai's prototype modifies Aalo's strict-priority getSchedule). */
        STRICT,
        /** Work-conserving weighted fair queueing with {@code w_q = K − q} ([paper] Alg. 1; weights [proposed]). */
        WEIGHTED
    }

    /** Which point of the three-step pipeline {@link #allocate} stops at (for tests of the intermediate rates). */
    enum Stage { INITIAL, BOTTLENECK, REALLOCATED }

    private final LasQueues queues;
    private final InterQueue interQueue;
    private final double epoch;
    private final Mbab mbab;
    /** The last decision's proof for {@link #skipWakeup} (see {@link #quietBound}). */
    private final QuietInterval quiet = new QuietInterval();
    /** The next queue crossing of the last decision, for the wake-up after a skipped one and for nextWakeup. */
    private final DecidedCrossing crossing;
    /** Whether a driver asked for {@link #skipWakeup}: only then is each decision's quiet interval proved. */
    private boolean proveQuiet;

    /**
     * @param queues number of LAS queues K ({@code >= 1})
     * @param multiplier threshold multiplier E ({@code > 1})
     * @param firstThreshold upper threshold of queue 0, Q1, in bytes ({@code > 0})
     * @param epoch seconds between decisions when nothing else happens ({@code > 0}; +∞ = threshold
     *        crossings, arrivals and completions only)
     * @param bytesTolerance MBAB byte-equality tolerance, relative ({@code >= 0})
     * @param bandwidthTolerance MBAB bandwidth-equality tolerance, relative to the largest capacity ({@code >= 0})
     */
    public FaiScheduler(int queues, double multiplier, double firstThreshold, InterQueue interQueue, double epoch,
            double bytesTolerance, double bandwidthTolerance) {
        if (interQueue == null) {
            throw new IllegalArgumentException("fai: inter-queue policy must not be null");
        }
        if (!(epoch > 0)) {
            throw new IllegalArgumentException("fai: epoch must be > 0 seconds, got " + epoch);
        }
        try {
            this.queues = new LasQueues(queues, multiplier, firstThreshold);
            this.crossing = new DecidedCrossing(this.queues);
            this.mbab = new Mbab(bytesTolerance, bandwidthTolerance);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fai: " + e.getMessage(), e);
        }
        this.interQueue = interQueue;
        this.epoch = epoch;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "LAS queues + MBAB bottleneck detection + remaining-bandwidth reallocation (non-clairvoyant)",
                Arrays.asList(
                        ParameterSpec.integer("queues", 10, 1, 64,
                                "[paper] number of LAS priority queues K (seed 001 §3.1: 10 queues)"),
                        ParameterSpec.real("multiplier", 10.0, 1.0, true,
                                "[paper] threshold multiplier E: Q_q^hi = Q1·E^q (seed 001 §3.1: Q_i = Q_1×10^i)"),
                        ParameterSpec.positive("firstThreshold", 10485760.0,
                                "[paper]/[resolved] upper threshold Q1 of queue 0 in bytes, 10 MiB, read 0-based"),
                        ParameterSpec.choice("interQueue", "strict",
                                "[code] strict priority across queues (Fai's prototype modifies Aalo's getSchedule); "
                                        + "weighted = WFQ with w_q = K − q [proposed]",
                                "strict", "weighted"),
                        ParameterSpec.positive("epoch", 0.01,
                                "[paper] decision interval Δ in seconds (seed 001 §4/§5.2: 10 ms)"),
                        ParameterSpec.real("bytesTolerance", 1e-6, 0.0, false,
                                "[proposed] MBAB byte equality: |a−b| <= tol·max(1,a) bytes"),
                        ParameterSpec.real("bandwidthTolerance", 1e-12, 0.0, false,
                                "[proposed] MBAB bandwidth equality: |a−b| <= tol·cap")),
                p -> {
                    InterQueue mode = "weighted".equals(p.getChoice("interQueue")) ? InterQueue.WEIGHTED
                            : InterQueue.STRICT;
                    return new FaiScheduler(p.getInt("queues"), p.getDouble("multiplier"), p.getDouble("firstThreshold"),
                            mode, p.getDouble("epoch"), p.getDouble("bytesTolerance"), p.getDouble("bandwidthTolerance"));
                });
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Keeps nothing from a state past the call (only ids and numbers): drivers may recycle states. */
    @Override
    public boolean retainsStates() {
        return false;
    }

    @Override
    public SchedulerType type() {
        return SchedulerType.RATE_BASED;
    }

    @Override
    public Set<Info> needs() {
        return EnumSet.noneOf(Info.class);
    }

    @Override
    public Decision schedule(ClusterState state) {
        if (!proveQuiet) {
            return Decision.ofOwnedRates(state, allocate(state, Stage.REALLOCATED));
        }
        Allocation a = allocate(state, Stage.REALLOCATED, new Allocation(state));
        double[] rate = a.rate;
        quiet.decided(state.now(), Math.min(crossing.decided(state, rate, a.atZero),
                quietBound(state, a.equalized, a.afterMbab, rate)));
        return Decision.ofOwnedRates(state, rate);
    }

    /**
     * Skips an epoch wake-up that comes before the decision could change: the next one is then the
     * following epoch or the queue crossing computed at the last decision.
     */
    @Override
    public void enableWakeupSkips() {
        proveQuiet = true;
    }

    @Override
    public double skipWakeup(double now) {
        return quiet.covers(now) ? Math.min(now + epoch, crossing.exact()) : Double.NaN;
    }

    /**
     * A lower bound on the first instant at which MBAB's test (step 2) could give another answer for some
     * coflow, if every flow keeps sending at {@code rate}. With the queues and the set of unfinished flows
     * fixed, step 1's rates are fixed, so the decision changes only when a coflow's test does:
     * <ul>
     *   <li>a coflow that was equalized sends all its unfinished flows at one rate (step 3 adds the same
     *       {@code left} to each), so the gaps between their bytes stay as they are while the tolerance
     *       grows with the bytes: its bottleneck stays found;</li>
     *   <li>for one that was not, the test needs a flow {@code f} of least step-1 bandwidth within the
     *       byte tolerance of the least-progressed flow, in particular of the flow {@code g} that is
     *       least-progressed now: {@code s_f − s_g − (r_g − r_f)·t <= tol·max(1, s_f + r_f·t)}, which
     *       cannot hold before {@code t = (s_f − s_g − tol·(1 + s_f)) / (r_g − r_f + tol·r_f)}.</li>
     * </ul>
     */
    private double quietBound(ClusterState state, boolean[] equalized, double[] stepOne, double[] rate) {
        double bound = Double.POSITIVE_INFINITY;
        double tol = mbab.bytesTolerance();
        double bwTol = mbab.bandwidthTolerance() * state.network().maxCapacity();
        for (int c = 0; c < state.coflowCount(); c++) {
            int[] flows = state.unfinishedFlowsOf(c);
            if (equalized[c] || flows.length == 0) {
                continue;
            }
            double minBw = Double.POSITIVE_INFINITY;
            int least = flows[0];
            for (int f : flows) {
                minBw = Math.min(minBw, stepOne[f]);
                if (state.sent(f) < state.sent(least)) {
                    least = f;
                }
            }
            double sg = state.sent(least);
            double rg = rate[least];
            for (int f : flows) {
                if (Math.abs(stepOne[f] - minBw) > bwTol) {
                    continue; // not a candidate bottleneck while step 1's rates stand
                }
                double sf = state.sent(f);
                double gap = sf - sg - tol * (1.0 + sf);
                if (gap <= 0) {
                    return state.now(); // within reach of the test already: prove nothing
                }
                double closing = rg - rate[f] + tol * rate[f];
                if (closing > 0) {
                    bound = Math.min(bound, state.now() + gap / closing);
                }
            }
        }
        return bound;
    }

    /**
     * {@code min(now + Δ, earliest queue-threshold crossing at the decided rates)}, the formula of
     * SCHEDULERS.md §4: a coflow changes queue only by sending, so between threshold crossings, arrivals and
     * completions the epoch is what lets MBAB see the flows' progress again.
     */
    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Math.min(state.now() + epoch, crossing.of(state, decision));
    }

    /** The queue of a coflow that has sent {@code sent} bytes (P7). */
    int queueOf(double sent) {
        return queues.queueOf(sent);
    }

    /** Per-flow rates, indexed like {@code state.flows()}, after the given step. */
    double[] allocate(ClusterState state, Stage upTo) {
        return allocate(state, upTo, new Allocation(state)).rate;
    }

    /** What one run of the three steps produced, beyond the rates, for the proof of a quiet interval. */
    private static final class Allocation {
        /** Per-flow rates, indexed like {@code state.flows()}. */
        double[] rate;
        /** Per coflow: whether MBAB found its bottleneck (and equalized it). */
        final boolean[] equalized;
        /** A copy of the rates after step 2. */
        double[] afterMbab;
        /** Per coflow: whether all its flows are known to be at rate 0 (false says nothing). */
        boolean[] atZero;

        Allocation(ClusterState state) {
            equalized = new boolean[state.coflowCount()];
        }
    }

    private Allocation allocate(ClusterState state, Stage upTo, Allocation out) {
        int[] queueOf = queues.queuesOf(state);
        double[] residual = state.residualCapacities(false);
        double[] bw = new double[state.flowCount()];
        out.rate = bw;
        boolean[] idle = interQueue == InterQueue.STRICT
                ? QueueAllocation.strict(state, queueOf, queues.queues(), QueueAllocation.GroupSharing.MAX_MIN,
                        residual, bw)
                : QueueAllocation.weighted(state, queueOf, weights(), QueueAllocation.GroupSharing.MAX_MIN, residual,
                        bw);
        out.atZero = idle;
        if (upTo == Stage.INITIAL) {
            return out;
        }
        int[] order = priorityOrder(queueOf);
        for (int c : order) {
            // A coflow step 1 gave nothing has all its flows at one rate, 0: MBAB finds it its own bottleneck and
            // changes nothing, as a pass over its flows would show (under strict priority, most wide coflows).
            out.equalized[c] = idle[c] ? state.unfinishedFlowsOf(c).length > 0
                    : mbab.equalize(state, c, bw, residual);
        }
        if (upTo == Stage.BOTTLENECK) {
            return out;
        }
        out.afterMbab = bw.clone();
        RemainingBandwidth step3 = new RemainingBandwidth(residual.length);
        for (int c : order) {
            if (step3.reallocate(state, c, bw, residual) > 0) {
                idle[c] = false;
            }
        }
        return out;
    }

    private double[] weights() {
        double[] w = new double[queues.queues()];
        for (int q = 0; q < w.length; q++) {
            w[q] = w.length - q;
        }
        return w;
    }

    /** Coflow indices by (queue, arrival, id): coflow indices already follow (arrival, id). */
    private int[] priorityOrder(int[] queueOf) {
        int k = queues.queues();
        int[] start = new int[k + 1];
        for (int q : queueOf) {
            start[q + 1]++;
        }
        for (int q = 0; q < k; q++) {
            start[q + 1] += start[q];
        }
        int[] order = new int[queueOf.length];
        for (int c = 0; c < queueOf.length; c++) {
            order[start[queueOf[c]]++] = c;
        }
        return order;
    }

    @Override
    public String toString() {
        return NAME + "(K=" + queues.queues() + ", " + interQueue.name().toLowerCase() + ", epoch=" + epoch + ")";
    }
}
