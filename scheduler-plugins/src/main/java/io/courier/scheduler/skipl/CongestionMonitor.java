package io.courier.scheduler.skipl;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * SkipL's measurement side (SCHEDULERS.md §8, Alg. 2 with its [resolved] stability filter): at every
 * measurement instant it compares each flow's measured throughput with the previous measurement, sums
 * desired rates and throughputs per extra link, and steps every link's {@link LinkBandwidthEstimator}.
 * Host ports are not estimated ([resolved]: the scheduler controls them fully in the big switch).
 *
 * <p>Mutable: it is the part of a {@link SkipLScheduler}'s state that survives between calls, bound to one
 * network.
 */
final class CongestionMonitor {
    private final Network network;
    private final double stabilityFraction;
    private final LinkBandwidthEstimator[] links;
    private final LinkBandwidthEstimator.Outcome[] lastOutcome;
    private Map<FlowId, Double> previous = new HashMap<>();

    /**
     * @param thresholdFraction T as a fraction of each link's capacity
     * @param silenceTime       seconds
     * @param stabilityFraction δ as a fraction of the smallest capacity on a flow's path
     */
    CongestionMonitor(Network network, double thresholdFraction, double silenceTime, double stabilityFraction) {
        this.network = network;
        this.stabilityFraction = stabilityFraction;
        this.links = new LinkBandwidthEstimator[network.linkCount()];
        this.lastOutcome = new LinkBandwidthEstimator.Outcome[links.length];
        for (int l = 0; l < links.length; l++) {
            double cap = network.capacity(network.link(l));
            // A zero-capacity link carries nothing; avoid ∞·0 when detection is disabled with T = ∞.
            double threshold = cap == 0 ? 0.0 : thresholdFraction * cap;
            links[l] = LinkBandwidthEstimator.initial(cap, threshold, silenceTime);
            lastOutcome[l] = LinkBandwidthEstimator.Outcome.UNCHANGED;
        }
    }

    Network network() {
        return network;
    }

    /** {@code B(l)} of extra link {@code link}. */
    double available(int link) {
        return links[link].available();
    }

    LinkBandwidthEstimator estimator(int link) {
        return links[link];
    }

    /** The case that fired for {@code link} at the last measurement. */
    LinkBandwidthEstimator.Outcome lastOutcome(int link) {
        return lastOutcome[link];
    }

    /**
     * One measurement instant: runs Alg. 2 on every extra link with the unfinished flows of {@code state}
     * and remembers their measurements for the next instant. Returns whether any estimate changed
     * (SkipL's "congestion detected" trigger).
     */
    boolean measure(ClusterState state) {
        int nLinks = links.length;
        boolean[] stable = new boolean[nLinks];
        Arrays.fill(stable, true);
        double[] desired = new double[nLinks];
        double[] throughput = new double[nLinks];
        Map<FlowId, Double> current = new HashMap<>();
        int hosts = network.hostCount();
        for (int i : state.unfinishedFlows()) {
            int[] res = state.resourcesOf(i);
            if (res.length <= 2) {
                continue; // no extra link: nothing to estimate from this flow
            }
            Flow f = state.flow(i);
            boolean known = f.hasMeasuredRate() && f.hasLastDesiredRate();
            double m = f.hasMeasuredRate() ? f.measuredRate() : 0.0;
            if (f.hasMeasuredRate()) {
                current.put(f.id(), m);
            }
            Double before = previous.get(f.id());
            double minCap = Double.POSITIVE_INFINITY;
            for (int k = 2; k < res.length; k++) {
                minCap = Math.min(minCap, network.capacity(res[k]));
            }
            // Spec line 0a: two consecutive measurements closer than δ; a flow without a previous
            // measurement or a previous decision is in transition by definition.
            boolean stableFlow = known && before != null && Math.abs(m - before) < stabilityFraction * minCap;
            for (int k = 2; k < res.length; k++) {
                int l = res[k] - 2 * hosts;
                stable[l] &= stableFlow;
                if (stableFlow) {
                    desired[l] += f.lastDesiredRate();
                    throughput[l] += m;
                }
            }
        }
        boolean changed = false;
        for (int l = 0; l < nLinks; l++) {
            LinkBandwidthEstimator.Step step = links[l].observe(state.now(), stable[l], desired[l], throughput[l]);
            links[l] = step.estimator();
            lastOutcome[l] = step.outcome();
            changed |= step.changed();
        }
        previous = current;
        return changed;
    }
}
