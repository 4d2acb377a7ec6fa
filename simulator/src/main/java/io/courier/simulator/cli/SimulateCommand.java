package io.courier.simulator.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.courier.scheduler.planning.SelectAndSplit;
import io.courier.scheduler.registry.ParameterSpec;
import io.courier.scheduler.registry.SchedulerRegistry;
import io.courier.simulator.engine.FluidSimulator;
import io.courier.simulator.engine.ProgressListener;
import io.courier.simulator.engine.SimulationOptions;
import io.courier.simulator.engine.Triggers;
import io.courier.simulator.engine.SimulationResult;
import io.courier.simulator.report.ReportFiles;
import io.courier.simulator.report.ResourceUse;
import io.courier.simulator.report.RunSummary;
import io.courier.simulator.report.SummaryCsv;
import io.courier.simulator.report.SummaryJson;
import io.courier.simulator.report.SummaryTable;
import io.courier.simulator.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code courier simulate}: replays a trace or a synthetic workload under one or more schedulers with the
 * fluid simulator, and prints (and optionally writes) the results. Options are documented in
 * docs/configuration.md, "Simulator CLI".
 */
@Command(name = "simulate", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Replay a coflow workload under each scheduler with the event-driven fluid simulator "
                + "and report CCTs (average, p50/p90/p99, weighted, per coflow bin) and concurrent flows per port.",
            "Times are in seconds, sizes in bytes."},
        footer = {"", "Examples:",
            "  courier simulate --trace FB2010-1Hr-150-0.txt --scheduler fair,varys,aalo \\",
            "      --out results",
            "  courier simulate --workload hosts=16,jobs=50,reducersPerHost=20 \\",
            "      --scheduler fair,aalo --compare-courier --parallel-copies 5 --format json",
            "  courier simulate --trace FB2010-1Hr-150-0.txt --coflowsim-compat \\",
            "      --scheduler 'fair,varys,aalo(firstThreshold=4194304,epoch=1)'",
            "",
            "Exit codes: 0 success, 2 bad input (unknown option or scheduler, bad number,",
            "missing file), 1 any other failure."})
public final class SimulateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Source source;

    /** Exactly one workload source. */
    static final class Source {
        @Option(names = "--trace", paramLabel = "FILE", required = true,
                description = "A trace in the coflow-benchmark format, such as the FB trace.")
        Path trace;

        @Option(names = "--workload", paramLabel = "SPEC", required = true,
                description = "Synthetic MapReduce workload, comma-separated key=value items, e.g. "
                        + "hosts=16,jobs=100,reducersPerHost=20,load=0.5,seed=7 (see docs/configuration.md).")
        String workload;
    }

    @Option(names = {"-s", "--scheduler"}, paramLabel = "LIST", required = true,
            description = "Schedulers to run, comma-separated, each optionally with parameters: "
                    + "fair,varys,'aalo(firstThreshold=4194304,epoch=1)'. May be repeated; names and parameters are listed below.")
    private List<String> schedulers;

    @Option(names = "--courier", description = "Run every scheduler with Courier's flow planning (Merge, SelectAndSplit).")
    private boolean courier;

    @Option(names = "--compare-courier",
            description = "Run every scheduler twice, without and then with Courier.")
    private boolean compareCourier;

    @Option(names = "--max-flows", paramLabel = "N",
            description = "Courier: most network flows a sending host starts at once (default: unlimited, "
                    + "one flow per host pair).")
    private Integer maxFlows;

    @Option(names = "--min-split-size", paramLabel = "BYTES", defaultValue = "1048576",
            description = "Courier: a unified flow is split only while larger than this (default: ${DEFAULT-VALUE}).")
    private double minSplitSize;

    @Option(names = "--parallel-copies", paramLabel = "N", defaultValue = "0",
            description = "Hadoop fetch model: at most N concurrent fetches per reducer; 0 = unlimited "
                    + "(default: ${DEFAULT-VALUE}; Hadoop's own default is 5).")
    private int parallelCopies;

    @Option(names = "--load-scale", paramLabel = "K", defaultValue = "1",
            description = "Divide every arrival time by K (K > 1 raises the load; default: ${DEFAULT-VALUE}).")
    private double loadScale;

    @Option(names = "--weights", paramLabel = "SPEC",
            description = "Coflow weights: W, fixed:W, uniform:A-B[:seed=N] or uniform-real:A-B[:seed=N] "
                    + "(default: the workload's, 1 for traces).")
    private String weights;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the synthetic workload and of random weights (default: the spec's own, 1).")
    private Long seed;

    @Option(names = "--port-capacity", paramLabel = "BYTES_PER_S",
            description = "Trace only: capacity of every port of the rack-level big switch "
                    + "(default: 134217728 = 128 MiB/s, CoflowSim's).")
    private Double portCapacity;

    @Option(names = "--coflowsim-compat",
            description = "CoflowSim conventions: trace sizing (flows rounded to MiB, split evenly over mappers; "
                    + "1024 ms = 1 s), admission in 10 s epochs, and fair/varys/aalo named without parameters "
                    + "run as fair(coflowsim=true), varys(staticKey=true), aalo(coflowsim=true).")
    private boolean coflowSimCompat;

    @Option(names = "--triggers", paramLabel = "WHEN",
            description = "When the scheduler is called again besides arrivals and its own wake-ups: flow = at every "
                    + "flow completion (exact, the spec's rule; default), coflow = only when a coflow completes or a "
                    + "waiting fetch starts (CoflowSim's rule, far fewer decisions on wide traces; the default with "
                    + "--coflowsim-compat).")
    private String triggers;

    @Option(names = "--no-wakeup-skips",
            description = "Call the scheduler at every one of its wake-ups, also after a quiet interval in which it "
                    + "can prove that its decision stands (those are skipped by default; the results are the same "
                    + "up to floating-point rounding, only the number of decisions differs).")
    private boolean noWakeupSkips;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write summary.json, summary.csv, coflows-<run>.csv per run, cct-cdf.png and "
                    + "cct-by-bin.png into DIR (created if missing).")
    private Path out;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "Output on stdout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). json is exactly "
                    + "one JSON object.")
    private OutputFormat format;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "The run that the per-bin plot and the table's relative block are normalized to: "
                    + "a run name (e.g. fair or fair+courier) or a scheduler name (default: the first run).")
    private String baseline;

    @Option(names = {"-q", "--quiet"}, description = "No progress or informational lines on stderr.")
    private boolean quiet;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    /**
     * Help text generated from the registry and {@link SimulationDefaults}: every scheduler with its
     * parameters and defaults, and the simulator's own defaults.
     */
    static String[] schedulerHelp(SchedulerRegistry registry, SimulationDefaults defaults) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("Schedulers and their parameters with defaults (details: docs/schedulers.md):");
        for (String name : registry.names()) {
            List<String> items = new ArrayList<>();
            for (ParameterSpec p : registry.factory(name).parameters()) {
                items.add(p.name() + "=" + readable(p.defaultValue()));
            }
            wrap("  " + name + ":", items.isEmpty() ? Collections.singletonList("(no parameters)") : items, lines);
        }
        lines.add("Simulator defaults (unless given; reasons in docs/configuration.md):");
        for (SimulationDefaults.Setting s : defaults.overrides()) {
            lines.add("  " + s.scheduler() + "(" + s.parameter() + "=" + s.value() + ")");
        }
        return lines.toArray(new String[0]);
    }

    /** {@code 1.048576E7} reads better as {@code 10485760}. */
    private static String readable(String value) {
        try {
            double d = Double.parseDouble(value);
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
        } catch (NumberFormatException e) {
            // not a number: shown as it is
        }
        return value;
    }

    /** Help lines of at most 78 characters; continuation lines are indented under the first item. */
    private static void wrap(String head, List<String> items, List<String> lines) {
        StringBuilder line = new StringBuilder(head);
        String indent = "      ";
        for (int i = 0; i < items.size(); i++) {
            String item = items.get(i) + (i < items.size() - 1 ? "," : "");
            if (line.length() + 1 + item.length() > 78 && line.length() > indent.length()) {
                lines.add(line.toString());
                line = new StringBuilder(indent);
            } else {
                line.append(' ');
            }
            line.append(item);
        }
        lines.add(line.toString());
    }

    /** One planned run: a scheduler with or without Courier. */
    private static final class PlannedRun {
        final PlannedScheduler scheduler;
        final boolean courier;

        PlannedRun(PlannedScheduler scheduler, boolean courier) {
            this.scheduler = scheduler;
            this.courier = courier;
        }

        String name() {
            return courier ? scheduler.label() + "+courier" : scheduler.label();
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SimulationOptions options = options();
        List<PlannedRun> runs = plan();
        int baselineIndex = baselineIndex(runs);
        checkOut();
        if (maxFlows != null && !courier && !compareCourier && !quiet) {
            err.println("courier simulate: note: --max-flows only affects runs with --courier or --compare-courier");
        }
        Workload workload = WorkloadLoader.load(source.trace, source.workload, coflowSimCompat, portCapacity,
                loadScale, weights, seed);
        if (workload.coflows().isEmpty()) {
            throw new UsageException("workload " + workload.name() + " has no coflows");
        }
        if (!quiet) {
            err.println("courier simulate: " + workload + "; " + runs.size() + " run" + (runs.size() == 1 ? "" : "s"));
            err.flush();
        }
        List<SimulationResult> results = new ArrayList<>();
        List<RunSummary> summaries = new ArrayList<>();
        boolean inPlace = System.console() != null;
        ResourceMeter meter = new ResourceMeter();
        for (int i = 0; i < runs.size(); i++) {
            PlannedRun r = runs.get(i);
            ProgressLine progress = new ProgressLine(err, "[" + (i + 1) + "/" + runs.size() + "] " + r.name(),
                    inPlace, System::nanoTime);
            meter.start();
            SimulationResult result = FluidSimulator.run(workload, r.scheduler.create(), r.scheduler.label(),
                    options.withCourier(r.courier), quiet ? ProgressListener.NONE : progress);
            ResourceUse used = meter.stop();
            if (!quiet) {
                progress.finish(result.coflows().size(), result.wallSeconds());
            }
            results.add(result);
            summaries.add(RunSummary.of(result, r.scheduler.effectiveParameters()).withResources(used));
        }
        ObjectNode json = SummaryJson.toJson(workload.name(), describe(options), summaries);
        switch (format) {
            case json:
                SummaryJson.write(json, stdout);
                break;
            case csv:
                SummaryCsv.write(summaries, stdout);
                break;
            default:
                stdout.print(SummaryTable.render(summaries, baselineIndex));
                printNotes(stdout, runs);
                break;
        }
        stdout.flush();
        if (out != null) {
            List<Path> files;
            try {
                files = ReportFiles.write(out, results, summaries, baselineIndex, json);
            } catch (IOException e) {
                throw new UsageException("cannot write to --out " + out + ": " + e, e);
            }
            if (!quiet) {
                err.println("courier simulate: wrote " + files.size() + " files to " + out);
            }
        }
        err.flush();
        return CourierCli.EXIT_OK;
    }

    private SimulationOptions options() {
        if (courier && compareCourier) {
            throw new UsageException("--courier and --compare-courier exclude each other (--compare-courier "
                    + "already runs with Courier)");
        }
        if (maxFlows != null && maxFlows < 1) {
            throw new UsageException("--max-flows must be >= 1, got " + maxFlows);
        }
        if (!(minSplitSize > 0) || Double.isInfinite(minSplitSize)) {
            throw new UsageException("--min-split-size must be a finite number of bytes > 0, got " + minSplitSize);
        }
        if (parallelCopies < 0) {
            throw new UsageException("--parallel-copies must be >= 0 (0 = unlimited), got " + parallelCopies);
        }
        if (!(loadScale > 0) || Double.isInfinite(loadScale)) {
            throw new UsageException("--load-scale must be finite and > 0, got " + loadScale);
        }
        if (portCapacity != null) {
            if (source.trace == null) {
                throw new UsageException("--port-capacity applies to --trace only; a synthetic workload takes "
                        + "capacity= in its spec");
            }
            if (!(portCapacity > 0) || Double.isInfinite(portCapacity)) {
                throw new UsageException("--port-capacity must be finite and > 0 bytes/s, got " + portCapacity);
            }
        }
        SimulationOptions o = SimulationOptions.defaults()
                .withParallelCopies(parallelCopies)
                .withMaxFlows(maxFlows == null ? SelectAndSplit.UNLIMITED : maxFlows)
                .withMinSplitSize(minSplitSize)
                .withQuietWakeupSkipping(!noWakeupSkips);
        if (coflowSimCompat) {
            o = o.withAdmissionEpoch(CoflowSimCompat.ADMISSION_EPOCH_SECONDS).withTriggers(Triggers.COFLOW);
        }
        if (triggers != null) {
            if (triggers.equals("flow")) {
                o = o.withTriggers(Triggers.FLOW);
            } else if (triggers.equals("coflow")) {
                o = o.withTriggers(Triggers.COFLOW);
            } else {
                throw new UsageException("--triggers must be flow or coflow, got '" + triggers + "'");
            }
        }
        return o;
    }

    private List<PlannedRun> plan() {
        SchedulerRegistry registry = SchedulerRegistry.standard();
        SimulationDefaults defaults = SimulationDefaults.standard();
        List<PlannedRun> runs = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String list : schedulers) {
            for (SchedulerSpec s : SchedulerSpec.parseList(list)) {
                PlannedScheduler p = PlannedScheduler.plan(s, coflowSimCompat, defaults, registry);
                if (!names.add(p.label())) {
                    throw new UsageException("scheduler '" + p.label() + "' is listed twice");
                }
                if (compareCourier) {
                    runs.add(new PlannedRun(p, false));
                    runs.add(new PlannedRun(p, true));
                } else {
                    runs.add(new PlannedRun(p, courier));
                }
            }
        }
        return runs;
    }

    /** The run named exactly, else the first run of that scheduler label, else of that registry name. */
    private int baselineIndex(List<PlannedRun> runs) {
        if (baseline == null) {
            return 0;
        }
        String b = baseline.trim();
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).name().equals(b)) {
                return i;
            }
        }
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).scheduler.label().equals(b)) {
                return i;
            }
        }
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).scheduler.name().equals(b)) {
                return i;
            }
        }
        List<String> names = new ArrayList<>();
        for (PlannedRun r : runs) {
            names.add(r.name());
        }
        throw new UsageException("--baseline '" + baseline + "' is none of the runs: " + String.join(", ", names));
    }

    private void checkOut() {
        if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
            throw new UsageException("--out " + out + " exists and is not a directory");
        }
    }

    private Map<String, Object> describe(SimulationOptions o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("parallelCopies", o.parallelCopies());
        m.put("maxFlows", maxFlows == null ? "unlimited" : (Object) maxFlows);
        m.put("minSplitSize", o.minSplitSize());
        m.put("admissionEpoch", o.admissionEpoch());
        m.put("triggers", o.triggers().name().toLowerCase(Locale.ROOT));
        m.put("loadScale", loadScale);
        m.put("coflowsimCompat", coflowSimCompat);
        if (noWakeupSkips) {
            m.put("wakeupSkips", false); // listed only when off, so that default runs read as before
        }
        if (weights != null) {
            m.put("weights", weights);
        }
        if (seed != null) {
            m.put("seed", seed);
        }
        return m;
    }

    /** Parameters the simulator chose for the user, so the table never hides what ran. */
    private static void printNotes(PrintWriter stdout, List<PlannedRun> runs) {
        Set<String> seen = new LinkedHashSet<>();
        List<String> lines = new ArrayList<>();
        for (PlannedRun r : runs) {
            if (seen.add(r.scheduler.label())) {
                for (String n : r.scheduler.notes()) {
                    lines.add("  " + r.scheduler.label() + ": " + n);
                }
            }
        }
        if (!lines.isEmpty()) {
            stdout.println();
            stdout.println("Parameters set by the simulator:");
            for (String l : lines) {
                stdout.println(l);
            }
        }
    }
}
