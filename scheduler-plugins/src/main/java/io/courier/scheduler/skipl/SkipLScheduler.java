package io.courier.scheduler.skipl;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Info;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerFactory;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * SkipL (SCHEDULERS.md §8): congestion-aware shortest-estimated-CCT-first. Every {@code Δ} it measures
 * the flows' throughput and estimates the available bandwidth {@code B(l)} of every extra link (Alg. 2,
 * {@link CongestionMonitor}); when the set of unfinished flows changed (an arrival or a completion) or an
 * estimate changed (congestion detected or gone), it reschedules (Alg. 1 with Alg. 3,
 * {@link RescheduleCoflows}) against port capacities and the link estimates. Otherwise it repeats its
 * previous decision: SkipL does not reschedule on a plain epoch.
 *
 * <p>Measurement instants are {@code Δ} apart starting with the first call; an arrival or completion in
 * between reschedules without measuring and without moving the measurement grid. Without extra links
 * there is nothing to measure, no wake-up is requested, and SkipL is SEBF-ordered MADD with arrival-order
 * top-up. The estimates are the scheduler's own state (see {@link #availableBandwidth}); the driver's
 * {@link ClusterState#linkEstimate} is not read. One instance belongs to one driver and one network.
 */
public final class SkipLScheduler implements CoflowScheduler {
    /** Registry name. */
    public static final String NAME = "skipl";

    private final double epoch;
    private final double congestionThreshold;
    private final double silenceTime;
    private final double stability;

    private CongestionMonitor monitor;
    private double nextMeasurement = Double.NEGATIVE_INFINITY;
    // The last rescheduling: the ids of the flows it covered (the unfinished ones), ascending, and the rate
    // it gave each. Ids and numbers, not the decision: a state may not be kept past the call (drivers
    // recycle them), so a decision that stands is re-expressed on the new state.
    private long[] lastIds;
    private double[] lastRates;

    /**
     * @param epoch               Δ, seconds between measurements (finite, {@code > 0})
     * @param congestionThreshold T as a fraction of each link's capacity ({@code > 0}; {@code ≥ 1} never detects)
     * @param silenceTime         seconds after a congestion at which the estimate is reset ({@code ≥ 0})
     * @param stability           δ as a fraction of the smallest capacity on a flow's path ({@code > 0})
     */
    public SkipLScheduler(double epoch, double congestionThreshold, double silenceTime, double stability) {
        if (!(epoch > 0) || Double.isInfinite(epoch)) {
            throw new IllegalArgumentException("scheduler 'skipl': parameter 'epoch' must be finite and > 0, got "
                    + epoch);
        }
        if (!(congestionThreshold > 0)) {
            throw new IllegalArgumentException("scheduler 'skipl': parameter 'congestionThreshold' must be > 0, got "
                    + congestionThreshold);
        }
        if (!(silenceTime >= 0)) {
            throw new IllegalArgumentException("scheduler 'skipl': parameter 'silenceTime' must be >= 0, got "
                    + silenceTime);
        }
        if (!(stability > 0)) {
            throw new IllegalArgumentException("scheduler 'skipl': parameter 'stability' must be > 0, got "
                    + stability);
        }
        this.epoch = epoch;
        this.congestionThreshold = congestionThreshold;
        this.silenceTime = silenceTime;
        this.stability = stability;
    }

    /** SkipL with the defaults of SCHEDULERS.md §8 (Δ = 0.1 s, T = 0.1·cap, silenceTime = 1 s, δ = 0.05·cap). */
    public static SkipLScheduler withDefaults() {
        return new SkipLScheduler(0.1, 0.1, 1.0, 0.05);
    }

    public static SchedulerFactory factory() {
        return SchedulerFactory.of(NAME, "congestion-aware shortest-estimated-CCT-first with link available-bandwidth estimation",
                Arrays.asList(
                        ParameterSpec.positive("epoch", 0.1,
                                "[paper] measurement interval Δ in seconds (testbed: 100 ms, as Varys)"),
                        ParameterSpec.positive("congestionThreshold", 0.1,
                                "[proposed] T of Alg. 2 as a fraction of the link capacity; >= 1 disables detection"),
                        ParameterSpec.real("silenceTime", 1.0, 0.0, false,
                                "[proposed] seconds without congestion after which B(l) is reset to the capacity"),
                        ParameterSpec.positive("stability", 0.05,
                                "[proposed] δ: throughput change below this fraction of the path's smallest "
                                        + "capacity counts as stable")),
                p -> new SkipLScheduler(p.getDouble("epoch"), p.getDouble("congestionThreshold"),
                        p.getDouble("silenceTime"), p.getDouble("stability")));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SchedulerType type() {
        return SchedulerType.RATE_BASED;
    }

    @Override
    public Set<Info> needs() {
        return EnumSet.of(Info.SIZES, Info.MEASURED_RATES, Info.LINK_ESTIMATES);
    }

    public double epoch() {
        return epoch;
    }

    public double congestionThreshold() {
        return congestionThreshold;
    }

    public double silenceTime() {
        return silenceTime;
    }

    public double stability() {
        return stability;
    }

    /** The current estimate {@code B(l)} of extra link {@code link}; known once a call has bound the network. */
    public double availableBandwidth(int link) {
        if (monitor == null) {
            throw new IllegalStateException("scheduler 'skipl' has not seen a network yet");
        }
        if (link < 0 || link >= monitor.network().linkCount()) {
            throw new IllegalArgumentException("scheduler 'skipl': link index " + link + " out of range [0, "
                    + monitor.network().linkCount() + ")");
        }
        return monitor.available(link);
    }

    /** The time of the last congestion detected on {@code link}, or {@link LinkBandwidthEstimator#NO_CONGESTION}. */
    public double lastCongestion(int link) {
        availableBandwidth(link);
        return monitor.estimator(link).lastCongestion();
    }

    @Override
    public Decision schedule(ClusterState state) {
        if (!state.sizesVisible()) {
            throw new IllegalStateException("scheduler 'skipl' is clairvoyant (Info.SIZES, SCHEDULERS.md §0.2) "
                    + "but was handed a state with hidden sizes");
        }
        bind(state.network());
        double now = state.now();
        boolean estimateChanged = false;
        if (state.network().linkCount() > 0 && now >= nextMeasurement - timeTolerance()) {
            estimateChanged = monitor.measure(state);
            nextMeasurement = now + epoch;
        }
        int[] byId = unfinishedById(state);
        long[] ids = new long[byId.length];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = state.flowIdValue(byId[k]);
        }
        if (!estimateChanged && lastIds != null && Arrays.equals(ids, lastIds)) {
            // No trigger: SkipL reschedules only on arrival, departure or congestion. The same flows, the
            // same rates (the same set of ids: equal ascending arrays).
            double[] rate = new double[state.flowCount()];
            for (int k = 0; k < byId.length; k++) {
                rate[byId[k]] = lastRates[k];
            }
            return Decision.ofOwnedRates(state, rate);
        }
        double[] available = state.network().capacities();
        for (int l = 0; l < state.network().linkCount(); l++) {
            available[state.network().link(l)] = monitor.available(l);
        }
        Decision decision = Decision.ofOwnedRates(state, RescheduleCoflows.apply(state, available));
        double[] rates = new double[byId.length];
        for (int k = 0; k < byId.length; k++) {
            rates[k] = decision.rateOf(state, byId[k]);
        }
        lastIds = ids;
        lastRates = rates;
        return decision;
    }

    /** Keeps only flow ids and rates between calls: drivers may recycle states. */
    @Override
    public boolean retainsStates() {
        return false;
    }

    @Override
    public double nextWakeup(ClusterState state, Decision decision) {
        return state.network().linkCount() == 0 ? Double.POSITIVE_INFINITY : nextMeasurement;
    }

    private double timeTolerance() {
        return 1e-9 * Math.max(1.0, epoch);
    }

    private void bind(Network network) {
        if (monitor == null) {
            monitor = new CongestionMonitor(network, congestionThreshold, silenceTime, stability);
            return;
        }
        Network bound = monitor.network();
        if (bound != network && (bound.resourceCount() != network.resourceCount()
                || bound.linkCount() != network.linkCount()
                || !Arrays.equals(bound.capacities(), network.capacities()))) {
            throw new IllegalStateException("scheduler 'skipl' keeps link estimates for one network; it was called "
                    + "with a different one (" + network.hostCount() + " hosts, " + network.linkCount()
                    + " links instead of " + bound.hostCount() + " hosts, " + bound.linkCount() + " links)");
        }
    }

    /** The unfinished flows of {@code state} in ascending id order (usually their index order already). */
    private static int[] unfinishedById(ClusterState state) {
        int[] fs = state.unfinishedFlows();
        boolean ascending = true;
        for (int k = 1; k < fs.length && ascending; k++) {
            ascending = state.flowIdValue(fs[k - 1]) < state.flowIdValue(fs[k]);
        }
        if (ascending) {
            return fs;
        }
        Integer[] boxed = new Integer[fs.length];
        for (int k = 0; k < fs.length; k++) {
            boxed[k] = fs[k];
        }
        Arrays.sort(boxed, (a, b) -> Long.compare(state.flowIdValue(a), state.flowIdValue(b)));
        for (int k = 0; k < fs.length; k++) {
            fs[k] = boxed[k];
        }
        return fs;
    }

    @Override
    public String toString() {
        return NAME + "(epoch=" + epoch + ", congestionThreshold=" + congestionThreshold + ", silenceTime="
                + silenceTime + ", stability=" + stability + ")";
    }
}
