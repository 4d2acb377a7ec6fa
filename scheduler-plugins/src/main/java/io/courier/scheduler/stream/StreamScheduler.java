package io.courier.scheduler.stream;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.SchedulerType;
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
 */
public final class StreamScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "stream";

    private final StreamPriority formula;
    private final double epoch;
    private final StarvationAging aging;
    private Map<Integer, ReceiverPriorities> receivers = new HashMap<>();
    private Map<CoflowId, Map<Integer, Double>> relayed = Collections.emptyMap();
    private Map<FlowId, Double> lastSent = Collections.emptyMap();
    private double nextEpoch = Double.NEGATIVE_INFINITY;

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
        // A call a hair before the epoch end (rounding in the driver's clock) still counts as the epoch.
        if (state.now() >= nextEpoch - 1e-9 * epoch) {
            runEpoch(state);
        }
        return decide(state);
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
        ReceiverViews views = ReceiverViews.of(state, relayed, aging.enabled() ? lastSent : null);
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
        Map<FlowId, Integer> priorities = new HashMap<>(state.flowCount() * 2);
        final int[] best = new int[state.coflowCount()];
        List<Integer> active = new ArrayList<>();
        for (int c = 0; c < state.coflowCount(); c++) {
            best[c] = Integer.MAX_VALUE;
            for (int f : state.unfinishedFlowsOf(c)) {
                Flow fl = state.flow(f);
                ReceiverPriorities r = receivers.get(fl.dst());
                int level = r == null ? 0 : r.levelOf(fl.coflow());
                priorities.put(fl.id(), level);
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
        return Decision.ofOrder(order, priorities);
    }

    @Override
    public String toString() {
        return "StreamScheduler(" + formula + ", epoch=" + epoch + " s, " + aging + ")";
    }
}
