package io.courier.simulator.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table of run summaries for a terminal: one row per run with the headline numbers, then the
 * average and p99 CCT per coflow bin, then (with several runs) those bin numbers divided by the baseline
 * run's. Four significant digits; "-" where a statistic does not exist.
 */
public final class SummaryTable {
    private SummaryTable() {
    }

    /** The table; {@code baseline} is the index of the run the normalized block divides by. */
    public static String render(List<RunSummary> runs, int baseline) {
        StringBuilder out = new StringBuilder();
        List<String[]> main = new ArrayList<>();
        main.add(new String[] {"run", "coflows", "avg CCT s", "p50", "p90", "p99", "avg w*CCT", "makespan",
            "max flows/port", "mean flows/port", "decisions", "wall s"});
        for (RunSummary r : runs) {
            main.add(new String[] {r.runName(), Integer.toString(r.coflows()), Numbers.human(r.avgCct()),
                Numbers.human(r.p50Cct()), Numbers.human(r.p90Cct()), Numbers.human(r.p99Cct()),
                Numbers.human(r.avgWeightedCct()), Numbers.human(r.makespan()),
                Integer.toString(r.maxConcurrentFlowsPerPort()), Numbers.human(r.meanConcurrentFlowsPerPort()),
                Long.toString(r.decisions()), Numbers.human(r.wallSeconds())});
        }
        format(main, out);
        out.append('\n');
        List<String[]> bins = new ArrayList<>();
        bins.add(binHeader("run"));
        for (RunSummary r : runs) {
            String[] row = new String[1 + 3 * CoflowBin.values().length];
            row[0] = r.runName();
            int i = 1;
            for (CoflowBin b : CoflowBin.values()) {
                BinStats s = r.bin(b);
                row[i++] = Integer.toString(s.coflows());
                row[i++] = Numbers.human(s.avgCct());
                row[i++] = Numbers.human(s.p99Cct());
            }
            bins.add(row);
        }
        format(bins, out);
        if (runs.size() > 1) {
            RunSummary base = runs.get(baseline);
            out.append('\n').append("CCT relative to ").append(base.runName()).append(" (1 = same, < 1 = faster)\n");
            List<String[]> rel = new ArrayList<>();
            String[] h = new String[3 + 2 * CoflowBin.values().length];
            h[0] = "run";
            h[1] = "all avg";
            h[2] = "all p99";
            int k = 3;
            for (CoflowBin b : CoflowBin.values()) {
                h[k++] = b + " avg";
                h[k++] = b + " p99";
            }
            rel.add(h);
            for (RunSummary r : runs) {
                String[] row = new String[h.length];
                row[0] = r.runName();
                row[1] = Numbers.human(r.avgCct() / base.avgCct());
                row[2] = Numbers.human(r.p99Cct() / base.p99Cct());
                int i = 3;
                for (CoflowBin b : CoflowBin.values()) {
                    row[i++] = Numbers.human(r.bin(b).avgCct() / base.bin(b).avgCct());
                    row[i++] = Numbers.human(r.bin(b).p99Cct() / base.bin(b).p99Cct());
                }
                rel.add(row);
            }
            format(rel, out);
        }
        return out.toString();
    }

    private static String[] binHeader(String first) {
        String[] h = new String[1 + 3 * CoflowBin.values().length];
        h[0] = first;
        int i = 1;
        for (CoflowBin b : CoflowBin.values()) {
            h[i++] = b + " n";
            h[i++] = b + " avg s";
            h[i++] = b + " p99 s";
        }
        return h;
    }

    /** First column left-aligned, the others right-aligned, two spaces apart. */
    private static void format(List<String[]> rows, StringBuilder out) {
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                if (i > 0) {
                    line.append("  ");
                }
                char[] pad = new char[width[i] - row[i].length()];
                Arrays.fill(pad, ' ');
                if (i == 0) {
                    line.append(row[i]).append(pad);
                } else {
                    line.append(pad).append(row[i]);
                }
            }
            int end = line.length();
            while (end > 0 && line.charAt(end - 1) == ' ') {
                end--;
            }
            out.append(line, 0, end).append('\n');
        }
    }
}
