package io.courier.simulator.cli;

import io.courier.simulator.trace.CoflowBenchmarkTraceReader;
import io.courier.simulator.trace.CoflowTrace;
import io.courier.simulator.trace.TraceFormatException;
import io.courier.simulator.workload.LoadScaling;
import io.courier.simulator.workload.SyntheticMapReduce;
import io.courier.simulator.workload.TraceWorkloads;
import io.courier.simulator.workload.Weights;
import io.courier.simulator.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds the workload of a {@code simulate} command: a trace file or a synthetic spec, then load scaling,
 * then weights. Every problem with the input (missing or malformed file, bad spec, bad factor) becomes a
 * {@link UsageException} whose message names the file or the spec key.
 */
final class WorkloadLoader {
    private WorkloadLoader() {
    }

    /**
     * @param portCapacity bytes/s of every port of a trace's big switch, or null for the conversion default
     * @param seed         the seed to use for the synthetic workload and random weights, or null to keep theirs
     */
    static Workload load(Path trace, String spec, boolean coflowSimCompat, Double portCapacity, double loadScale,
            String weights, Long seed) {
        Workload w = trace != null ? fromTrace(trace, coflowSimCompat, portCapacity) : synthetic(spec, seed);
        try {
            w = LoadScaling.compress(w, loadScale);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--load-scale: " + e.getMessage(), e);
        }
        if (weights != null) {
            Weights ws;
            try {
                ws = Weights.parse(weights);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--weights: " + e.getMessage(), e);
            }
            if (seed != null && !ws.isFixed()) {
                if (weights.contains("seed=")) {
                    throw new UsageException("--seed and a seed inside --weights '" + weights + "': give only one");
                }
                ws = ws.withSeed(seed);
            }
            w = ws.apply(w);
        }
        return w;
    }

    private static Workload fromTrace(Path trace, boolean coflowSimCompat, Double portCapacity) {
        if (Files.isDirectory(trace)) {
            throw new UsageException("trace file " + trace + " is a directory");
        }
        if (!Files.isRegularFile(trace)) {
            throw new UsageException("trace file not found: " + trace);
        }
        CoflowTrace parsed;
        try {
            parsed = CoflowBenchmarkTraceReader.read(trace);
        } catch (TraceFormatException e) {
            throw new UsageException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UsageException("cannot read trace file " + trace + ": " + e, e);
        }
        TraceWorkloads conversion = coflowSimCompat ? TraceWorkloads.coflowSimCompat() : TraceWorkloads.defaults();
        try {
            if (portCapacity != null) {
                conversion = conversion.withPortCapacity(portCapacity);
            }
            return conversion.convert(parsed);
        } catch (IllegalArgumentException e) {
            throw new UsageException(trace + ": " + e.getMessage(), e);
        }
    }

    private static Workload synthetic(String spec, Long seed) {
        try {
            SyntheticMapReduce generator = SyntheticMapReduce.parse(spec);
            if (seed != null) {
                if (hasItem(spec, "seed")) {
                    throw new UsageException("--seed and seed= inside --workload '" + spec + "': give only one");
                }
                generator = generator.withSeed(seed);
            }
            return generator.generate();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--workload: " + e.getMessage(), e);
        }
    }

    /** Whether a comma-separated key=value spec has an item for {@code key}. */
    static boolean hasItem(String spec, String key) {
        for (String item : spec.split(",")) {
            int eq = item.indexOf('=');
            if (eq > 0 && item.substring(0, eq).trim().equals(key)) {
                return true;
            }
        }
        return false;
    }
}
