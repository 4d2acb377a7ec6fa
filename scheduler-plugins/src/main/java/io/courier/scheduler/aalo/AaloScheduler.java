package io.courier.scheduler.aalo;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.DecidedCrossing;
import io.courier.scheduler.primitives.LasQueues;
import io.courier.scheduler.primitives.QueueAllocation;
import io.courier.scheduler.primitives.QuietInterval;
import io.courier.scheduler.primitives.QueueAllocation.GroupSharing;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Aalo's D-CLAS, discretized coflow-aware least-attained service (SCHEDULERS.md §4). Non-clairvoyant: a
 * coflow's queue follows from the bytes all its flows have sent; queues are served in strict priority
 * (or weighted, {@code w_q = K − q}); inside a queue, FIFO by arrival, coflows with equal arrival sharing
 * jointly by max-min (or CoflowSim's one-shot share).
 *
 * <p>It keeps no state across calls: the queues are derived from {@code sent} every time, so a driver
 * may call it at any instant. It asks to be woken at the next epoch or at the exact instant a coflow's
 * attained service crosses its queue's upper threshold, whichever comes first. The only things it
 * remembers are, for {@link #skipWakeup}, until when its last decision provably stands, and that decision's
 * next crossing for {@link #nextWakeup} (so one instance belongs to one driver, one thread).
 */
public final class AaloScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "aalo";

    private final LasQueues queues;
    private final boolean weighted;
    private final GroupSharing sharing;
    private final double epoch;
    /** The last decision's proof for {@link #skipWakeup}: its queues stand until the earliest crossing. */
    private final QuietInterval quiet = new QuietInterval();
    /** The next queue crossing of the last decision, for the wake-up after a skipped one and for nextWakeup. */
    private final DecidedCrossing crossing;
    /** Whether a driver asked for {@link #skipWakeup}: only then is each decision's quiet interval proved. */
    private boolean proveQuiet;

    public AaloScheduler(LasQueues queues, boolean weighted, GroupSharing sharing, double epoch) {
        if (!(epoch > 0)) {
            throw new IllegalArgumentException("aalo: epoch must be > 0 seconds, got " + epoch);
        }
        this.queues = queues;
        this.crossing = new DecidedCrossing(queues);
        this.weighted = weighted;
        this.sharing = sharing;
        this.epoch = epoch;
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "D-CLAS least-attained-service queues (non-clairvoyant)", Arrays.asList(
                ParameterSpec.integer("queues", 10, 1, 64, "[code] K, number of queues (CoflowSim NUM_JOB_QUEUES)"),
                ParameterSpec.real("multiplier", 10.0, 1.0, true, "[code] E, queue threshold multiplier (JOB_SIZE_MULT)"),
                ParameterSpec.positive("firstThreshold", 10.0 * 1048576,
                        "[code] Q1, upper threshold of queue 0 in bytes (INIT_QUEUE_LIMIT = 10 MiB)"),
                ParameterSpec.choice("interQueue", "strict",
                        "[code] strict priority across queues; weighted = WFQ with w_q = K - q [proposed]",
                        "strict", "weighted"),
                ParameterSpec.bool("coflowsim", false,
                        "[code] share inside a tie group with CoflowSim's one-shot fair share instead of exact max-min"),
                ParameterSpec.positive("epoch", 0.01, "[paper] Δ in seconds between re-evaluations (Fai: O(10) ms)")),
                p -> new AaloScheduler(
                        new LasQueues(p.getInt("queues"), p.getDouble("multiplier"), p.getDouble("firstThreshold")),
                        "weighted".equals(p.getChoice("interQueue")),
                        p.getBoolean("coflowsim") ? GroupSharing.ONE_SHOT : GroupSharing.MAX_MIN,
                        p.getDouble("epoch")));
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
        int[] queueOf = queueOf(state);
        double[] rate = new double[state.flowCount()];
        double[] residual = state.residualCapacities(false);
        boolean[] idle;
        if (weighted) {
            double[] w = new double[queues.queues()];
            for (int q = 0; q < w.length; q++) {
                w[q] = w.length - q;
            }
            idle = QueueAllocation.weighted(state, queueOf, w, sharing, residual, rate);
        } else {
            idle = QueueAllocation.strict(state, queueOf, queues.queues(), sharing, residual, rate);
        }
        // The allocation is a function of the queues and the set of unfinished flows only (never of bytes
        // sent within a queue), so while the network is quiet it changes only when a queue does.
        if (proveQuiet) {
            quiet.decided(state.now(), crossing.decided(state, rate, idle));
        }
        return Decision.ofOwnedRates(state, rate);
    }

    /** The queue of every active coflow, indexed like {@code state.coflows()}. */
    public int[] queueOf(ClusterState state) {
        return queues.queuesOf(state);
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return Math.min(state.now() + epoch, crossing.of(state, decision));
    }

    /**
     * Skips an epoch wake-up that comes before any queue could change: the decision would be the same.
     * The next wake-up is then the following epoch or the crossing computed at the last decision.
     */
    @Override
    public void enableWakeupSkips() {
        proveQuiet = true;
    }

    @Override
    public double skipWakeup(double now) {
        return quiet.covers(now) ? Math.min(now + epoch, crossing.exact()) : Double.NaN;
    }
}
