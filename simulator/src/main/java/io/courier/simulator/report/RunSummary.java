package io.courier.simulator.report;

import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.SimulationResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers one simulation run is judged by. Times are in seconds; percentiles are nearest-rank
 * ({@link Percentiles}); {@code avgWeightedCct} is the mean of weight · CCT over the coflows (not divided by
 * the weights' sum), which equals {@code avgCct} when every weight is 1. Statistics of an empty run are NaN.
 * Immutable.
 */
public final class RunSummary {
    private final String scheduler;
    private final boolean courier;
    private final Map<String, String> parameters;
    private final int coflows;
    private final double avgCct;
    private final double p50Cct;
    private final double p90Cct;
    private final double p99Cct;
    private final double avgWeightedCct;
    private final double makespan;
    private final int maxConcurrentFlowsPerPort;
    private final double meanConcurrentFlowsPerPort;
    private final long decisions;
    private final double wallSeconds;
    private final Map<CoflowBin, BinStats> bins;
    private final ResourceUse resources; // null = not measured

    private RunSummary(RunSummary s, ResourceUse resources) {
        this.scheduler = s.scheduler;
        this.courier = s.courier;
        this.parameters = s.parameters;
        this.coflows = s.coflows;
        this.avgCct = s.avgCct;
        this.p50Cct = s.p50Cct;
        this.p90Cct = s.p90Cct;
        this.p99Cct = s.p99Cct;
        this.avgWeightedCct = s.avgWeightedCct;
        this.makespan = s.makespan;
        this.maxConcurrentFlowsPerPort = s.maxConcurrentFlowsPerPort;
        this.meanConcurrentFlowsPerPort = s.meanConcurrentFlowsPerPort;
        this.decisions = s.decisions;
        this.wallSeconds = s.wallSeconds;
        this.bins = s.bins;
        this.resources = resources;
    }

    private RunSummary(SimulationResult r, Map<String, String> parameters) {
        List<CoflowResult> cs = r.coflows();
        double[] ccts = new double[cs.size()];
        double sum = 0;
        double weighted = 0;
        Map<CoflowBin, List<Double>> byBin = new EnumMap<>(CoflowBin.class);
        for (CoflowBin b : CoflowBin.values()) {
            byBin.put(b, new ArrayList<Double>());
        }
        for (int i = 0; i < ccts.length; i++) {
            CoflowResult c = cs.get(i);
            ccts[i] = c.cct();
            sum += c.cct();
            weighted += c.weight() * c.cct();
            byBin.get(CoflowBin.of(c)).add(c.cct());
        }
        Arrays.sort(ccts);
        int n = ccts.length;
        this.scheduler = r.scheduler();
        this.courier = r.courier();
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        this.coflows = n;
        this.avgCct = n == 0 ? Double.NaN : sum / n;
        this.p50Cct = Percentiles.ofSorted(ccts, 50);
        this.p90Cct = Percentiles.ofSorted(ccts, 90);
        this.p99Cct = Percentiles.ofSorted(ccts, 99);
        this.avgWeightedCct = n == 0 ? Double.NaN : weighted / n;
        this.makespan = n == 0 ? Double.NaN : r.makespan();
        this.maxConcurrentFlowsPerPort = r.concurrency().max();
        this.meanConcurrentFlowsPerPort = r.concurrency().mean();
        this.decisions = r.decisions();
        this.wallSeconds = r.wallSeconds();
        this.resources = null;
        Map<CoflowBin, BinStats> bs = new EnumMap<>(CoflowBin.class);
        for (Map.Entry<CoflowBin, List<Double>> e : byBin.entrySet()) {
            double[] v = new double[e.getValue().size()];
            double s = 0;
            for (int i = 0; i < v.length; i++) {
                v[i] = e.getValue().get(i);
                s += v[i];
            }
            bs.put(e.getKey(), new BinStats(e.getKey(), v.length, v.length == 0 ? Double.NaN : s / v.length,
                    Percentiles.of(v, 99)));
        }
        this.bins = Collections.unmodifiableMap(bs);
    }

    /** The summary of a run. */
    public static RunSummary of(SimulationResult result) {
        return new RunSummary(result, Collections.<String, String>emptyMap());
    }

    /** The summary of a run with the scheduler's effective parameters, for reports. */
    public static RunSummary of(SimulationResult result, Map<String, String> effectiveParameters) {
        return new RunSummary(result, effectiveParameters);
    }

    /** This summary with the run's measured CPU time and peak heap. */
    public RunSummary withResources(ResourceUse used) {
        return new RunSummary(this, used);
    }

    /** The run's CPU time and peak heap, or null when they were not measured. */
    public ResourceUse resources() {
        return resources;
    }

    /** The scheduler's label as the user asked for it. */
    public String scheduler() {
        return scheduler;
    }

    public boolean courier() {
        return courier;
    }

    /** The label plus {@code +courier} for runs with Courier: unique among the runs of one command. */
    public String runName() {
        return courier ? scheduler + "+courier" : scheduler;
    }

    /** Every parameter the scheduler ran with (defaults and overrides included); may be empty. */
    public Map<String, String> parameters() {
        return parameters;
    }

    public int coflows() {
        return coflows;
    }

    public double avgCct() {
        return avgCct;
    }

    public double p50Cct() {
        return p50Cct;
    }

    public double p90Cct() {
        return p90Cct;
    }

    public double p99Cct() {
        return p99Cct;
    }

    public double avgWeightedCct() {
        return avgWeightedCct;
    }

    /** Finish time of the last coflow (s). */
    public double makespan() {
        return makespan;
    }

    public int maxConcurrentFlowsPerPort() {
        return maxConcurrentFlowsPerPort;
    }

    public double meanConcurrentFlowsPerPort() {
        return meanConcurrentFlowsPerPort;
    }

    /** Number of scheduler calls. */
    public long decisions() {
        return decisions;
    }

    public double wallSeconds() {
        return wallSeconds;
    }

    /** Statistics per bin, every bin present (empty bins have 0 coflows and NaN times). */
    public Map<CoflowBin, BinStats> bins() {
        return bins;
    }

    public BinStats bin(CoflowBin b) {
        return bins.get(b);
    }

    @Override
    public String toString() {
        return runName() + ": " + coflows + " coflows, avg CCT " + avgCct + " s, p99 " + p99Cct + " s";
    }
}
