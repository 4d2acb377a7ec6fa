package io.courier.scheduler.bench;

import io.courier.simulator.trace.CoflowBenchmarkTraceReader;
import io.courier.simulator.trace.CoflowTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The snapshots the scheduler benchmark runs on: the FB trace's busiest instant ({@link BusiestInstant}), or
 * the synthetic stand-in ({@link SyntheticWorkload}) where the trace is absent.
 */
public final class Snapshots {
    /** CoflowSim's port speed, 1024·1048576 bit/s = 128 MiB/s (PAPER_RESULTS.md §0). */
    public static final double PORT_CAPACITY = 128.0 * 1048576;
    /** Seed of the progress, weights and synthetic workload: fixed, so every run measures the same state. */
    public static final long SEED = 2010L;
    /** System property naming the FB trace file. */
    public static final String TRACE_PROPERTY = "courier.fbTrace";
    /** Where the trace is looked for by default: {@code shared/} beside the project root, run from the root. */
    public static final String DEFAULT_TRACE = "../shared/data/FB2010-1Hr-150-0.txt";

    private Snapshots() {
    }

    /**
     * {@code fb} (the trace must exist), {@code synthetic}, or {@code auto}: the trace when it exists, else
     * the synthetic snapshot (the origin line says which).
     */
    public static BenchmarkSnapshot load(String kind) throws IOException {
        Path trace = Paths.get(System.getProperty(TRACE_PROPERTY, DEFAULT_TRACE));
        if ("fb".equals(kind)) {
            if (!Files.isRegularFile(trace)) {
                throw new IllegalStateException("snapshot 'fb' needs the FB trace, not found at "
                        + trace.toAbsolutePath() + " (set -D" + TRACE_PROPERTY + "=<path>)");
            }
            return fromTrace(trace);
        }
        if ("synthetic".equals(kind)) {
            return synthetic(SEED);
        }
        if ("auto".equals(kind)) {
            if (Files.isRegularFile(trace)) {
                return fromTrace(trace);
            }
            BenchmarkSnapshot s = synthetic(SEED);
            return new BenchmarkSnapshot(s.origin() + " (FB trace not found at " + trace.toAbsolutePath() + ")",
                    s.state());
        }
        throw new IllegalArgumentException("unknown snapshot '" + kind + "'; valid: auto, fb, synthetic");
    }

    /** The busiest instant of a coflow-benchmark trace file, on ports of {@link #PORT_CAPACITY}. */
    public static BenchmarkSnapshot fromTrace(Path file) throws IOException {
        CoflowTrace trace = CoflowBenchmarkTraceReader.read(file);
        BusiestInstant busiest = BusiestInstant.of(trace, PORT_CAPACITY);
        return new BenchmarkSnapshot(file.getFileName() + " busiest instant (decoupled FIFO ports, seed " + SEED + ")",
                SnapshotAssembler.assemble(trace.racks(), PORT_CAPACITY, busiest.instant(), busiest.active(), SEED));
    }

    public static BenchmarkSnapshot synthetic(long seed) {
        SyntheticWorkload w = SyntheticWorkload.generate(seed);
        return new BenchmarkSnapshot("synthetic (seed " + seed + ")", SnapshotAssembler.assemble(
                SyntheticWorkload.RACKS, PORT_CAPACITY, SyntheticWorkload.NOW, w.active(), seed));
    }
}
