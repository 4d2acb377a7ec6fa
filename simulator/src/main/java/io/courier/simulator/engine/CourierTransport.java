package io.courier.simulator.engine;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.planning.Merge;
import io.courier.scheduler.planning.PlannedFlow;
import io.courier.scheduler.planning.PlannedFlows;
import io.courier.scheduler.planning.PlanningMode;
import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.scheduler.planning.UnifiedFlow;
import io.courier.scheduler.primitives.MaxMin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Courier's agent in the fluid model (SCHEDULERS.md §11): at every decision each sending host merges its
 * flows per destination ({@link Merge}) and starts at most {@code MaxNum} network flows
 * ({@link SelectAndSplit}); the network then serves those network flows, and each one's rate is divided
 * among the flows it carries. Rate mode keeps the scheduler's rates for the flows of selected pairs;
 * order mode runs the scheduler's enforcer over the network flows by rank and divides equally among the
 * best-ranked flows of a pair; with no coflow scheduler (Fair) network flows share the ports max-min and
 * divide equally — TCP fairness per connection instead of per fetch.
 *
 * <p>Owned by one simulation run; stateless between calls.
 */
final class CourierTransport {
    private final PlanningMode mode;
    private final CoflowScheduler.Enforcement enforcement;
    private final SelectAndSplit selector;
    /** Host index by name: unified flows name their destination. */
    private final Map<String, Integer> hostOf = new HashMap<>();

    CourierTransport(Network network, PlanningMode mode, CoflowScheduler.Enforcement enforcement, int maxFlows,
            double minSplitSize) {
        for (int h = 0; h < network.hostCount(); h++) {
            hostOf.put(network.hostName(h), h);
        }
        this.mode = mode;
        this.enforcement = enforcement;
        this.selector = new SelectAndSplit(maxFlows, minSplitSize);
    }

    /** The planning mode of a scheduler: Fair is "no coflow scheduler", the rest follow their type. */
    static PlanningMode modeOf(CoflowScheduler scheduler) {
        if ("fair".equals(scheduler.name())) {
            return PlanningMode.NONE;
        }
        return scheduler.type() == SchedulerType.RATE_BASED ? PlanningMode.RATE : PlanningMode.ORDER;
    }

    /**
     * Per-flow rates (indexed like {@code state.flows()}) after planning; {@code network} receives the
     * endpoints of every network flow that sends (for the concurrency statistics).
     *
     * @param state    the full state (pending bytes are the sender's, not hidden)
     * @param decision the scheduler's decision (ignored for Fair, which plans as "no coflow scheduler")
     */
    double[] apply(ClusterState state, Decision decision, List<int[]> network) {
        Network net = state.network();
        List<List<PlannedFlow>> bySource = PlannedFlows.bySource(state, decision, mode);
        List<UnifiedFlow> started = new ArrayList<>();
        List<int[]> endpoints = new ArrayList<>();
        for (int h = 0; h < net.hostCount(); h++) {
            if (bySource.get(h).isEmpty()) {
                continue;
            }
            for (UnifiedFlow u : selector.apply(Merge.merge(bySource.get(h), mode))) {
                started.add(u);
                endpoints.add(new int[] {h, hostOf.get(u.pair().dst())});
            }
        }
        double[] out = new double[state.flowCount()];
        if (mode == PlanningMode.RATE) {
            for (int k = 0; k < started.size(); k++) {
                UnifiedFlow u = started.get(k);
                for (PlannedFlow p : u.constituents()) {
                    // A split pair lists its flows in both halves; each flow keeps its own rate once.
                    out[state.indexOf(p.id())] = p.rate();
                }
                if (u.rate() > 0) {
                    network.add(endpoints.get(k));
                }
            }
            return out;
        }
        double[] unifiedRate = serveNetworkFlows(net, started, endpoints);
        for (int k = 0; k < started.size(); k++) {
            UnifiedFlow u = started.get(k);
            if (unifiedRate[k] <= 0) {
                continue;
            }
            network.add(endpoints.get(k));
            double share = unifiedRate[k] / u.constituents().size();
            for (PlannedFlow p : u.constituents()) {
                out[state.indexOf(p.id())] += share;
            }
        }
        return out;
    }

    /** Rates of the network flows: max-min among them (no scheduler) or the enforcer by rank (order mode). */
    private double[] serveNetworkFlows(Network net, List<UnifiedFlow> started, List<int[]> endpoints) {
        ClusterState.Builder b = ClusterState.builder(net);
        TreeSet<Integer> ranks = new TreeSet<>();
        for (UnifiedFlow u : started) {
            ranks.add(mode == PlanningMode.ORDER ? u.rank() : 0);
        }
        // One pseudo-coflow per rank: E1 serves them in rank order, E2 uses the ranks as classes.
        Map<Integer, CoflowId> classOf = new HashMap<>();
        for (int r : ranks) {
            CoflowId id = CoflowId.of(classOf.size());
            classOf.put(r, id);
            b.coflow(new Coflow(id, 0.0, 1.0));
        }
        for (int k = 0; k < started.size(); k++) {
            int rank = mode == PlanningMode.ORDER ? started.get(k).rank() : 0;
            b.flow(Flow.builder(FlowId.of(k), classOf.get(rank), endpoints.get(k)[0], endpoints.get(k)[1])
                    .size(started.get(k).size()).build());
        }
        ClusterState unified = b.build();
        double[] rate = new double[started.size()];
        if (mode == PlanningMode.NONE) {
            MaxMin.fill(unified, unified.unfinishedFlows(), unified.residualCapacities(false), null, rate);
            return rate;
        }
        List<CoflowId> order = new ArrayList<>();
        Map<FlowId, Integer> priority = new HashMap<>();
        for (int r : ranks) {
            order.add(classOf.get(r));
        }
        for (int k = 0; k < started.size(); k++) {
            priority.put(FlowId.of(k), started.get(k).rank() < 0 ? Integer.MAX_VALUE : started.get(k).rank());
        }
        return OrderEnforcer.rates(unified, Decision.ofOrder(order, priority), enforcement);
    }
}
