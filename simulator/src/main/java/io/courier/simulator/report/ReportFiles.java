package io.courier.simulator.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.courier.simulator.engine.SimulationResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the report of a set of runs into a directory (created if missing; files of the same name are
 * replaced): {@code summary.json} ({@link SummaryJson}), {@code summary.csv} ({@link SummaryCsv}), one
 * {@code coflows-<run>.csv} per run ({@link CoflowCsv}), {@code cct-cdf.png} and {@code cct-by-bin.png}
 * ({@link Plots}).
 */
public final class ReportFiles {
    public static final String SUMMARY_JSON = "summary.json";
    public static final String SUMMARY_CSV = "summary.csv";
    public static final String CDF_PNG = "cct-cdf.png";
    public static final String BINS_PNG = "cct-by-bin.png";

    private ReportFiles() {
    }

    /**
     * Writes every file; {@code runs.get(i)} is summarized by {@code summaries.get(i)} and {@code baseline}
     * indexes the run the bin plot is normalized to. Returns the files written, in writing order.
     */
    public static List<Path> write(Path dir, List<SimulationResult> runs, List<RunSummary> summaries, int baseline,
            ObjectNode summaryJson) throws IOException {
        if (runs.size() != summaries.size()) {
            throw new IllegalArgumentException(runs.size() + " runs but " + summaries.size() + " summaries");
        }
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        Path json = dir.resolve(SUMMARY_JSON);
        try (Writer w = Files.newBufferedWriter(json, StandardCharsets.UTF_8)) {
            SummaryJson.write(summaryJson, w);
        }
        written.add(json);
        Path csv = dir.resolve(SUMMARY_CSV);
        try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            SummaryCsv.write(summaries, w);
        }
        written.add(csv);
        List<String> names = new ArrayList<>();
        for (RunSummary s : summaries) {
            names.add(s.runName());
        }
        List<String> files = coflowFileNames(names);
        for (int i = 0; i < runs.size(); i++) {
            Path f = dir.resolve(files.get(i));
            try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
                CoflowCsv.write(runs.get(i), w);
            }
            written.add(f);
        }
        Path cdf = dir.resolve(CDF_PNG);
        if (Plots.writeCctCdf(runs, cdf)) {
            written.add(cdf);
        }
        Path bins = dir.resolve(BINS_PNG);
        if (Plots.writeBinBars(summaries, baseline, bins)) {
            written.add(bins);
        }
        return written;
    }

    /**
     * {@code coflows-<run>.csv} with every character outside {@code [A-Za-z0-9._=+-]} of the run name
     * replaced by {@code _} (so {@code aalo(epoch=1)+courier} becomes {@code coflows-aalo_epoch=1_+courier.csv});
     * names that collide get {@code -2}, {@code -3}, …
     */
    static List<String> coflowFileNames(List<String> runNames) {
        Set<String> used = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (String n : runNames) {
            String slug = "coflows-" + n.replaceAll("[^A-Za-z0-9._=+-]", "_");
            String f = slug + ".csv";
            for (int k = 2; !used.add(f); k++) {
                f = slug + "-" + k + ".csv";
            }
            out.add(f);
        }
        return out;
    }
}
