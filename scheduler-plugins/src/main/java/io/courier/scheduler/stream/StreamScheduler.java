package io.courier.scheduler.stream;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.QuietInterval;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Stream (SCHEDULERS.md §7): decentralized, receiver-driven C-SJF. Every receiver ranks its own sub-coflows with
 * {@link StreamPriority} (eq. 5, with Weighted-Priority and Information-Relay) and keeps them in
 * {@link ReceiverPriorities}; flows are sent in strict-priority classes that share max-min inside (E2).
 *
 * <p>This class is the simulator's stand-in for all receivers at once: at every epoch {@code Δ} it cuts the
 * cluster state into receiver-local views ({@link ReceiverViews}) and feeds each receiver's state holder, so no
 * decision uses anything a receiver could not know. Calls between epochs (arrivals, completions) keep the levels;
 * a sub-coflow not yet seen by its receiver starts in class 0, as in the paper. State is kept per (coflow,
 * receiver) and dropped when the coflow is no longer active.
 *
 * <p>A driver may skip an epoch ({@link #skipWakeup}) at which no level can change: the levels rise only as
 * bytes arrive, so from the decided rates each sub-coflow's next rise is bounded below; a skipped epoch's
 * relay (its bytes received, read by the next epoch) is recorded from the same rates when the next epoch runs.
 */
public final class StreamScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "stream";

    private final StreamPriority formula;
    private final double epoch;
    private final StarvationAging aging;
    private Map<Integer, ReceiverPriorities> receivers = new HashMap<>();
    private Map<CoflowId, ReceivedBytes> relayed = Collections.emptyMap();
    /** Who relays to whom in each active coflow, kept across epochs ({@link SubCoflowShapes}). */
    private final SubCoflowShapes shapes = new SubCoflowShapes();
    private Map<FlowId, Double> lastSent = Collections.emptyMap();
    private double nextEpoch = Double.NEGATIVE_INFINITY;
    /** The last decision's proof for {@link #skipWakeup}: no receiver's level moves before its bound. */
    private final QuietInterval quiet = new QuietInterval();
    /** Whether a driver asked for {@link #skipWakeup}: only then is each decision's quiet interval proved. */
    private boolean proveQuiet;
    /**
     * What the relay of a skipped epoch would have recorded, as of the last decision: per coflow, the bytes
     * each receiving host had received and receives per second at the decided rates.
     */
    private Map<CoflowId, ReceivedBytes> receiving = Collections.emptyMap();
    /** The last epoch skipped since the last decision, NaN if none: its relay is still to be recorded. */
    private double skippedEpoch = Double.NaN;

    /**
     * @param formula       the priority formula (K, τ, α, β, τ mode)
     * @param epochSeconds  the update epoch Δ ({@code > 0})
     * @param aging         the optional starvation rule
     */
    public StreamScheduler(StreamPriority formula, double epochSeconds, StarvationAging aging) {
        if (formula == null || aging == null) {
            throw new IllegalArgumentException("Stream: formula and aging must not be null");
        }
        if (!(epochSeconds > 0) || Double.isInfinite(epochSeconds)) {
            throw new IllegalArgumentException("Stream: parameter 'epoch' must be a finite number of seconds > 0, got "
                    + epochSeconds);
        }
        this.formula = formula;
        this.epoch = epochSeconds;
        this.aging = aging;
    }

    /** The defaults of SCHEDULERS.md §7: K = 4, τ = 10 MB, α = β = 1, Δ = 10 ms, no starvation rule. */
    public static StreamScheduler withDefaults() {
        return new StreamScheduler(StreamPriority.defaults(), 0.01, StarvationAging.off());
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "decentralized receiver-driven C-SJF with Weighted-Priority and Information-Relay, "
                + "strict priority classes (E2)",
                Arrays.asList(
                        ParameterSpec.integer("queues", 4, 1, 64,
                                "[paper] K, number of strict priority classes (4 in the paper's simulation, 8 on its "
                                        + "testbed)"),
                        ParameterSpec.positive("tau", 10.0,
                                "[paper]/[resolved] demotion threshold of the highest class in MB (2^20 bytes)"),
                        ParameterSpec.choice("tauMode", TauMode.CONSTANT.parameterValue(),
                                "[resolved] constant: tau for every level; current-level: tau*10^k at level k",
                                TauMode.CONSTANT.parameterValue(), TauMode.CURRENT_LEVEL.parameterValue()),
                        ParameterSpec.positive("alpha", 1.0,
                                "[proposed] weight of the coflow-condition term H and of W = alpha*ln(m+1)"),
                        ParameterSpec.real("beta", 1.0, 0.0, false,
                                "[proposed] weight of the relayed bytes S of peer receivers (0 = no "
                                        + "Information-Relay)"),
                        ParameterSpec.positive("epoch", 0.01,
                                "[proposed] seconds between priority updates (priorities ride on ACKs, about an RTT)"),
                        ParameterSpec.bool("starvation", false,
                                "[proposed] transient, escalating promotion of stalled sub-coflows"),
                        ParameterSpec.positive("starvationTimer", 0.01,
                                "[paper] T_starve in seconds (RTO_min): one level of promotion per T_starve of stall")),
                p -> {
                    StreamPriority formula = new StreamPriority(p.getInt("queues"), p.getDouble("tau"),
                            p.getDouble("alpha"), p.getDouble("beta"), TauMode.fromParameter(p.getChoice("tauMode")));
                    StarvationAging aging = p.getBoolean("starvation")
                            ? StarvationAging.every(p.getDouble("starvationTimer")) : StarvationAging.off();
                    return new StreamScheduler(formula, p.getDouble("epoch"), aging);
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
        return SchedulerType.ORDER_BASED;
    }

    @Override
    public Set<Info> needs() {
        return EnumSet.of(Info.RECEIVER_LOCAL_ONLY);
    }

    @Override
    public Enforcement enforcement() {
        return Enforcement.PRIORITY_CLASS_MAX_MIN;
    }

    public StreamPriority formula() {
        return formula;
    }

    public double epoch() {
        return epoch;
    }

    public StarvationAging aging() {
        return aging;
    }

    @Override
    public Decision schedule(ClusterState state) {
        if (!Double.isNaN(skippedEpoch)) {
            // The epoch skipped last would have relayed the bytes received by then; the next one reads them.
            relayed = relayAt(skippedEpoch);
            skippedEpoch = Double.NaN;
        }
        // A call a hair before the epoch end (rounding in the driver's clock) still counts as the epoch.
        if (state.now() >= nextEpoch - 1e-9 * epoch) {
            runEpoch(state);
        }
        Decision d = decide(state);
        if (proveQuiet) {
            prove(state, d);
        }
        return d;
    }

    /**
     * Skips an epoch at which provably no receiver's level changes (so the decision stands): it advances
     * the epoch clock as the epoch would have and remembers the epoch, whose relay (this epoch's bytes
     * received, read by the next epoch) is recorded from the decided rates when the next epoch runs.
     */
    @Override
    public void enableWakeupSkips() {
        proveQuiet = true;
    }

    @Override
    public double skipWakeup(double now) {
        if (aging.enabled() || !quiet.covers(now) || now < nextEpoch - 1e-9 * epoch) {
            return Double.NaN;
        }
        skippedEpoch = now;
        nextEpoch = now + epoch;
        return nextEpoch;
    }

    /**
     * Records until when the decision provably stands if the network stays quiet, and what the relay of a
     * skipped epoch needs. A level changes at an epoch only when the formula level of a sub-coflow rises
     * above its previous formula level; with constant rates the bytes received grow linearly and the
     * relayed bytes {@code S} (peers' bytes one epoch late) stay below the coflow's other receivers' bytes
     * now, so {@link StreamPriority#timeAtOrBelowLevel} bounds that instant for each sub-coflow. Nothing is
     * proved with the starvation rule on (a stall is a change of rates) or while a sub-coflow has no
     * state yet (its first epoch creates it).
     */
    private void prove(ClusterState state, Decision decision) {
        double now = state.now();
        if (aging.enabled() || state.unfinishedFlows().length == 0) {
            quiet.clear();
            receiving = Collections.emptyMap();
            return;
        }
        double[] rate = OrderEnforcer.rates(state, decision, enforcement());
        int hosts = state.network().hostCount();
        double[] x = new double[hosts];
        double[] r = new double[hosts];
        int[] n = new int[hosts];
        int[] done = new int[hosts];
        int[] touched = new int[hosts];
        Map<CoflowId, ReceivedBytes> rec = new HashMap<>(state.coflowCount() * 2);
        double bound = Double.POSITIVE_INFINITY;
        for (int c = 0; c < state.coflowCount(); c++) {
            CoflowId id = state.coflow(c).id();
            int count = 0;
            double total = 0;
            double totalRate = 0;
            for (int f : state.flowsOf(c)) {
                int d = state.dst(f);
                if (n[d] == 0) {
                    touched[count++] = d;
                }
                n[d]++;
                x[d] += state.sent(f);
                total += state.sent(f);
                if (state.finished(f)) {
                    done[d]++;
                } else {
                    r[d] += rate[f];
                    totalRate += rate[f];
                }
            }
            int[] hostsOf = Arrays.copyOf(touched, count);
            double[] xOf = new double[count];
            double[] rOf = new double[count];
            for (int k = 0; k < count; k++) {
                int d = touched[k];
                xOf[k] = x[d];
                rOf[k] = r[d];
                ReceiverPriorities holder = receivers.get(d);
                if (holder == null || !holder.knows(id)) {
                    bound = now;
                } else if (bound > now) {
                    double dt = formula.timeAtOrBelowLevel(holder.previousFormulaLevelOf(id),
                            holder.demotedLevelOf(id), x[d], r[d], total - x[d], totalRate - r[d], n[d], done[d], 1);
                    bound = Math.min(bound, now + dt);
                }
                x[d] = 0;
                r[d] = 0;
                n[d] = 0;
                done[d] = 0;
            }
            // Hosts in the order the coflow's flows first reach them: its shape's receiver order.
            rec.put(id, new ReceivedBytes(hostsOf, xOf, rOf));
        }
        quiet.decided(now, bound);
        receiving = rec;
    }

    /** The relay an epoch at {@code t} would have recorded: bytes received per coflow and host at the decided rates. */
    private Map<CoflowId, ReceivedBytes> relayAt(double t) {
        double dt = t - quiet.decidedAt();
        Map<CoflowId, ReceivedBytes> out = new HashMap<>(receiving.size() * 2);
        for (Map.Entry<CoflowId, ReceivedBytes> e : receiving.entrySet()) {
            out.put(e.getKey(), e.getValue().after(dt));
        }
        return out;
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return state.unfinishedFlows().length == 0 ? Double.POSITIVE_INFINITY : nextEpoch;
    }

    /** The state holder of a receiving host after the last epoch, or {@code null} if it has no sub-coflow. */
    public ReceiverPriorities receiver(int host) {
        return receivers.get(host);
    }

    private void runEpoch(ClusterState state) {
        ReceiverViews views = ReceiverViews.of(state, relayed, aging.enabled() ? lastSent : null, shapes);
        Map<Integer, ReceiverPriorities> next = new HashMap<>(views.byReceiver().size() * 2);
        for (Map.Entry<Integer, List<SubCoflowObservation>> e : views.byReceiver().entrySet()) {
            ReceiverPriorities r = receivers.get(e.getKey());
            if (r == null) {
                r = new ReceiverPriorities(state.network().hostName(e.getKey()), formula, aging);
            }
            r.update(state.now(), e.getValue());
            next.put(e.getKey(), r);
        }
        receivers = next; // hosts that receive nothing from an active coflow keep no state
        relayed = views.received();
        lastSent = views.sent();
        nextEpoch = state.now() + epoch;
    }

    /**
     * Every unfinished flow gets its sub-coflow's level. The coflow order (unused by E2, but read by order-mode
     * consumers) is by the best level among a coflow's unfinished flows, then (arrival, id).
     */
    private Decision decide(ClusterState state) {
        int[] priorities = new int[state.flowCount()];
        Arrays.fill(priorities, -1); // finished flows get no class
        final int[] best = new int[state.coflowCount()];
        List<Integer> active = new ArrayList<>();
        // A sub-coflow's level is one lookup per (coflow, receiver), not per flow: receivers by host in an array,
        // and each coflow's levels by host noted on first use (stamped with the coflow).
        int hosts = state.network().hostCount();
        ReceiverPriorities[] byHost = new ReceiverPriorities[hosts];
        for (Map.Entry<Integer, ReceiverPriorities> e : receivers.entrySet()) {
            byHost[e.getKey()] = e.getValue();
        }
        int[] levelAt = new int[hosts];
        int[] levelOfCoflow = new int[hosts];
        Arrays.fill(levelOfCoflow, -1);
        for (int c = 0; c < state.coflowCount(); c++) {
            best[c] = Integer.MAX_VALUE;
            CoflowId id = state.coflow(c).id();
            for (int f : state.unfinishedFlowsOf(c)) {
                // From the state's columns: no flow object per flow and decision.
                int dst = state.dst(f);
                if (levelOfCoflow[dst] != c) {
                    ReceiverPriorities r = byHost[dst];
                    levelAt[dst] = r == null ? 0 : r.levelOf(id);
                    levelOfCoflow[dst] = c;
                }
                int level = levelAt[dst];
                priorities[f] = level;
                best[c] = Math.min(best[c], level);
            }
            if (best[c] != Integer.MAX_VALUE) {
                active.add(c);
            }
        }
        // Stable sort: coflows are already in (arrival, id) order.
        Collections.sort(active, (a, b) -> Integer.compare(best[a], best[b]));
        List<CoflowId> order = new ArrayList<>(active.size());
        for (int c : active) {
            order.add(state.coflow(c).id());
        }
        return Decision.ofOrderWithOwnedPriorities(state, order, priorities);
    }

    @Override
    public String toString() {
        return "StreamScheduler(" + formula + ", epoch=" + epoch + " s, " + aging + ")";
    }
}
