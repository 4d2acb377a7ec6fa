package io.courier.bench.netemu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The summary's CPU parts: per scenario a table of the agents' median CPU-seconds per run, in all and per thread
 * role, beside the CCT, with each mode's ratio to stock; for the segment-size sweep, each mode's fixed cost per
 * segment and cost per byte ({@link CostFit}). Medians are of the valid runs, or of all runs when none is valid
 * (the n column says which). Stateless.
 */
final class CpuSummary {
    private CpuSummary() {
    }

    /** The runs of {@code mode} the medians are taken over, and whether they are the valid ones. */
    private record Sample(List<RunRecord> runs, boolean validOnly) {
    }

    private static Sample sample(List<RunRecord> runs, String mode) {
        List<RunRecord> valid = new ArrayList<>();
        List<RunRecord> all = new ArrayList<>();
        for (RunRecord r : runs) {
            if (r.mode().equals(mode)) {
                all.add(r);
                if (r.valid()) {
                    valid.add(r);
                }
            }
        }
        return valid.isEmpty() ? new Sample(all, false) : new Sample(valid, true);
    }

    /** The CPU table and ratio lines of one scenario's runs (markdown, ends with a blank line). */
    static String table(List<RunRecord> runs, List<String> modes) {
        StringBuilder o = new StringBuilder();
        o.append("Agent CPU-seconds per run (all hosts, the run window; medians):\n\n");
        StringBuilder head = new StringBuilder("| mode | n | CCT s | agent CPU-s |");
        StringBuilder rule = new StringBuilder("|---|---|---|---|");
        for (ThreadRole r : ThreadRole.values()) {
            head.append(' ').append(r.label()).append(" |");
            rule.append("---|");
        }
        o.append(head).append(" unattributed |\n").append(rule).append("---|\n");
        for (String mode : modes) {
            Sample s = sample(runs, mode);
            o.append(String.format(Locale.ROOT, "| %s | %d%s | %.3f | %.2f |", mode, s.runs().size(),
                    s.validOnly() ? "" : " (all)", Report.med(s.runs(), CpuSummary::cct),
                    Report.med(s.runs(), r -> r.cpu().agentSec())));
            for (ThreadRole role : ThreadRole.values()) {
                o.append(String.format(Locale.ROOT, " %.2f |", Report.med(s.runs(), r -> r.cpu().roles().of(role))));
            }
            o.append(String.format(Locale.ROOT, " %.2f |%n", Report.med(s.runs(), r -> r.cpu().unattributedSec())));
        }
        o.append('\n');
        if (modes.contains("stock")) {
            for (String mode : modes) {
                if (!mode.equals("stock")) {
                    o.append(ratioLine(runs, mode)).append("\n\n");
                }
            }
        }
        return o.toString();
    }

    /** Mode {@code mode}'s median CPU-seconds relative to stock's, in all and per role ("–" where one is 0). */
    static String ratioLine(List<RunRecord> runs, String mode) {
        Sample c = sample(runs, mode);
        Sample s = sample(runs, "stock");
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "CPU %s/stock: agent %s (%.2f vs %.2f s)",
                Report.displayName(mode), ratio(c, s, r -> r.cpu().agentSec()), Report.med(c.runs(),
                        r -> r.cpu().agentSec()), Report.med(s.runs(), r -> r.cpu().agentSec())));
        for (ThreadRole role : ThreadRole.values()) {
            b.append("; ").append(role.label()).append(' ').append(ratio(c, s, r -> r.cpu().roles().of(role)));
        }
        return b.append('.').toString();
    }

    private static String ratio(Sample num, Sample den, ToDoubleFunction<RunRecord> f) {
        double a = Report.med(num.runs(), f);
        double b = Report.med(den.runs(), f);
        // Below 5 ms per run a ratio says nothing (schedstat rounding of idle threads).
        if (Double.isNaN(a) || Double.isNaN(b) || a < 0.005 || b < 0.005) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2fx", a / b);
    }

    private static double cct(RunRecord r) {
        return "mixed".equals(r.family()) ? r.medianCct() : r.cct();
    }

    /**
     * The segment-size sweep's split of agent CPU per run into a cost per segment and per byte, per mode (markdown;
     * empty when the runs hold no segment-sweep run).
     */
    static String segmentFit(List<RunRecord> runs, List<String> modes) {
        List<RunRecord> sweep = new ArrayList<>();
        for (RunRecord r : runs) {
            if ("segment-sweep".equals(r.family())) {
                sweep.add(r);
            }
        }
        if (sweep.isEmpty()) {
            return "";
        }
        StringBuilder o = new StringBuilder("## segment-sweep: fixed and per-byte agent CPU\n\n");
        o.append("Least squares over the runs of each mode: agent CPU-s per run = per segment x segments + per byte"
                + " x bytes. The sweep holds the segment count fixed, so the per-segment cost also carries the"
                + " per-run fixed costs.\n\n");
        o.append("| mode | runs | ms per segment | s per GiB | rms residual CPU-s |\n|---|---|---|---|---|\n");
        for (String mode : modes) {
            Sample s = sample(sweep, mode);
            List<CostFit.Point> pts = new ArrayList<>();
            for (RunRecord r : s.runs()) {
                pts.add(new CostFit.Point(r.cpu().segments(), r.cpu().bytes(), r.cpu().agentSec()));
            }
            CostFit f = CostFit.of(pts);
            o.append(String.format(Locale.ROOT, "| %s | %d%s | %.3f | %.2f | %.3f |%n", mode, f.points(),
                    s.validOnly() ? "" : " (all)", f.msPerSegment(), f.secPerGiB(), f.rmsResidualSec()));
        }
        return o.append('\n').toString();
    }
}
