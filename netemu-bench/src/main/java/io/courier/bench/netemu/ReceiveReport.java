package io.courier.bench.netemu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The loopback receive-path benchmark's results: {@code runs.csv} (every run, per role) and {@code summary.md}
 * (per mode and segment size, medians: CPU-s per run, receive and serve CPU per segment and per GiB; per mode, the
 * {@link CostFit} of receive CPU over the sizes). Stateless.
 */
final class ReceiveReport {
    private static final double GIB = 1L << 30;

    private ReceiveReport() {
    }

    static void appendCsv(Path csv, ReceiveRun r) throws IOException {
        StringBuilder b = new StringBuilder();
        if (!Files.exists(csv)) {
            List<String> h = new ArrayList<>(List.of("mode", "segment_bytes", "repeat", "reducers", "segments",
                    "bytes", "wall_s", "process_cpu_s", "receive_cpu_s", "serve_cpu_s"));
            for (ThreadRole role : ThreadRole.values()) {
                h.add(role.csvColumn());
            }
            h.addAll(List.of("cpu_unattributed_s", "sampled_threads", "cpu_samples", "max_sample_gap_ms"));
            b.append(String.join(",", h)).append('\n');
        }
        List<String> v = new ArrayList<>(List.of(r.mode(), Long.toString(r.segmentBytes()),
                Integer.toString(r.repeat()), Integer.toString(r.reducers()), Long.toString(r.segments()),
                Long.toString(r.bytes()), f(r.wallSec()), f(r.processCpuSec()), f(r.receiveSec()), f(r.serveSec())));
        for (ThreadRole role : ThreadRole.values()) {
            v.add(f(r.roles().of(role)));
        }
        v.addAll(List.of(f(r.roles().unattributedSec(r.processCpuSec())), Integer.toString(r.roles().threads()),
                Integer.toString(r.roles().samples()), f(r.roles().maxGapMillis())));
        b.append(String.join(",", v)).append('\n');
        Files.writeString(csv, b.toString(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    static String markdown(Map<String, Object> config, List<ReceiveRun> runs) {
        StringBuilder o = new StringBuilder("# Receive path on loopback: ");
        List<String> modes = new ArrayList<>();
        TreeSet<Long> sizes = new TreeSet<>();
        for (ReceiveRun r : runs) {
            if (!modes.contains(r.mode())) {
                modes.add(r.mode());
            }
            sizes.add(r.segmentBytes());
        }
        o.append(String.join(" vs ", modes)).append("\n\n");
        for (Map.Entry<String, Object> e : config.entrySet()) {
            o.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        o.append("\nMedians over runs. CPU: this process's CPU-seconds over a run (agent, reducers and driver in one"
                + " JVM); receive = fetch-workers + relay-reader + map-events + merge + reduce-task; serve = proxy-io"
                + " + shuffle-server (Courier's proxy reads the map output and relays it; ShuffleHandler sends it).\n\n");
        o.append("| mode | segment | n | wall s | CPU-s | receive CPU-s | serve CPU-s | receive ms/segment"
                + " | receive s/GiB | CPU ms/segment | CPU s/GiB | jit | gc | unattributed |\n");
        o.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (long size : sizes) {
            for (String mode : modes) {
                List<ReceiveRun> rs = select(runs, mode, size);
                if (rs.isEmpty()) {
                    continue;
                }
                o.append(String.format(Locale.ROOT,
                        "| %s | %d KB | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.3f | %.2f | %.3f | %.3f | %.3f |%n",
                        mode, size >> 10, rs.size(), med(rs, ReceiveRun::wallSec), med(rs, ReceiveRun::processCpuSec),
                        med(rs, ReceiveRun::receiveSec), med(rs, ReceiveRun::serveSec),
                        med(rs, r -> 1e3 * r.receiveSec() / r.segments()),
                        med(rs, r -> GIB * r.receiveSec() / r.bytes()),
                        med(rs, r -> 1e3 * r.processCpuSec() / r.segments()),
                        med(rs, r -> GIB * r.processCpuSec() / r.bytes()),
                        med(rs, r -> r.roles().of(ThreadRole.JIT)), med(rs, r -> r.roles().of(ThreadRole.GC)),
                        med(rs, r -> r.roles().unattributedSec(r.processCpuSec()))));
            }
        }
        o.append("\nFixed and per-byte cost (least squares over every run of a mode: CPU = per segment x segments +"
                + " per byte x bytes; the segment count is the same in every run, so the per-segment cost carries the"
                + " per-run fixed costs too):\n\n");
        o.append("| mode | runs | receive ms/segment | receive s/GiB | CPU ms/segment | CPU s/GiB |\n"
                + "|---|---|---|---|---|---|\n");
        for (String mode : modes) {
            List<CostFit.Point> receive = new ArrayList<>();
            List<CostFit.Point> total = new ArrayList<>();
            for (ReceiveRun r : runs) {
                if (r.mode().equals(mode)) {
                    receive.add(new CostFit.Point(r.segments(), r.bytes(), r.receiveSec()));
                    total.add(new CostFit.Point(r.segments(), r.bytes(), r.processCpuSec()));
                }
            }
            CostFit fr = CostFit.of(receive);
            CostFit ft = CostFit.of(total);
            o.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.2f | %.3f | %.2f |%n", mode, fr.points(),
                    fr.msPerSegment(), fr.secPerGiB(), ft.msPerSegment(), ft.secPerGiB()));
        }
        return o.toString();
    }

    private static List<ReceiveRun> select(List<ReceiveRun> runs, String mode, long size) {
        List<ReceiveRun> out = new ArrayList<>();
        for (ReceiveRun r : runs) {
            if (r.mode().equals(mode) && r.segmentBytes() == size) {
                out.add(r);
            }
        }
        return out;
    }

    private static double med(List<ReceiveRun> rs, ToDoubleFunction<ReceiveRun> f) {
        List<Double> v = new ArrayList<>();
        for (ReceiveRun r : rs) {
            v.add(f.applyAsDouble(r));
        }
        return Stats.minMedMax(v)[1];
    }
}
