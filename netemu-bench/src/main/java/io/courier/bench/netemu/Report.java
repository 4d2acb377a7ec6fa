package io.courier.bench.netemu;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Writes a benchmark's results: {@code runs.csv} and {@code runs.json} (every run, valid or not),
 * {@code summary.md} (min/median/max per scenario and mode, valid runs and all runs kept apart) and the PNG plots.
 * Stateless.
 */
final class Report {
    private static final String[] CSV_HEADER = {"family", "label", "x", "mode", "repeat", "started_at", "cct_s",
        "median_cct_s", "ideal_s", "efficiency", "switch_drops", "switch_packets", "loss_pct", "host_nic_drops",
        "retrans_segs", "rto_timeouts", "syn_retrans", "loss_probes", "active_opens", "max_conn_per_host",
        "max_conn_per_pair",
        "busy_cores", "softirq_cores", "agent_cores", "coordinator_cores", "other_cores_before", "loadavg1", "wall_s", "valid",
        "invalid_reasons", "errors"};
    /** Appended after {@link #CSV_HEADER}: the run's work and the agents' CPU-seconds, in all and per thread role. */
    private static final List<String> CPU_HEADER = cpuHeader();

    private Report() {
    }

    private static List<String> cpuHeader() {
        List<String> h = new ArrayList<>(List.of("segments", "shuffled_bytes", "agent_cpu_s",
                "agent_cpu_s_by_host"));
        for (ThreadRole r : ThreadRole.values()) {
            h.add(r.csvColumn());
        }
        h.add("cpu_unattributed_s");
        h.add("sampled_threads");
        h.add("cpu_samples");
        h.add("max_sample_gap_ms");
        return List.copyOf(h);
    }

    static void appendCsv(Path csv, RunRecord r) throws IOException {
        StringBuilder b = new StringBuilder();
        if (!Files.exists(csv)) {
            b.append(String.join(",", CSV_HEADER)).append(',').append(String.join(",", CPU_HEADER)).append('\n');
        }
        List<Object> v = new ArrayList<>(List.of(r.family(), r.label(), r.x(), r.mode(), r.repeat(), r.startedAt(), r.cct(), r.medianCct(),
            r.idealSec(), r.efficiency(), r.switchDrops(), r.switchPackets(), r.lossPct(), r.hostNicDrops(),
            r.retransSegs(), r.timeouts(), r.synRetrans(), r.lossProbes(), r.activeOpens(), r.maxConnPerHost(),
            r.maxConnPerPair(),
            r.busyCores(), r.softirqCores(), r.agentCores(), r.coordinatorCores(), r.otherCoresBefore(), r.loadavg1(), r.wallSec(),
            r.valid(), String.join("; ", r.invalidReasons()), String.join("; ", r.errors())));
        RunCpu cpu = r.cpu();
        List<String> byHost = new ArrayList<>();
        for (double sec : cpu.agentSecByHost()) {
            byHost.add(String.format(Locale.ROOT, "%.2f", sec));
        }
        v.addAll(List.of(cpu.segments(), cpu.bytes(), cpu.agentSec(), String.join(";", byHost)));
        for (ThreadRole role : ThreadRole.values()) {
            v.add(cpu.roles().of(role));
        }
        v.add(cpu.unattributedSec());
        v.add(cpu.roles().threads());
        v.add(cpu.roles().samples());
        v.add(cpu.roles().maxGapMillis());
        for (int i = 0; i < v.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            String s = v.get(i) instanceof Double ? String.format(Locale.ROOT, "%.4f", (Double) v.get(i))
                    : String.valueOf(v.get(i));
            b.append(s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s);
        }
        b.append('\n');
        Files.writeString(csv, b.toString(), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    static void writeAll(Path dir, Map<String, Object> config, List<RunRecord> runs) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("config", config);
        doc.put("runs", runs);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("runs.json").toFile(),
                doc);
        Files.writeString(dir.resolve("summary.md"), markdown(config, runs), StandardCharsets.UTF_8);
        Plots.write(dir, runs);
    }

    /** Runs grouped by scenario label, in first-seen order. */
    static Map<String, List<RunRecord>> byLabel(List<RunRecord> runs) {
        Map<String, List<RunRecord>> m = new LinkedHashMap<>();
        for (RunRecord r : runs) {
            m.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r);
        }
        return m;
    }

    /** The modes of {@code runs} (their labels), in first-seen order: stock, courier, courier+varys, ... */
    static List<String> modes(List<RunRecord> runs) {
        List<String> m = new ArrayList<>();
        for (RunRecord r : runs) {
            if (!m.contains(r.mode())) {
                m.add(r.mode());
            }
        }
        return m;
    }

    static String markdown(Map<String, Object> config, List<RunRecord> runs) {
        StringWriter sw = new StringWriter();
        PrintWriter o = new PrintWriter(sw);
        List<String> modes = modes(runs);
        o.println("# Emulated-network benchmark: " + String.join(" vs ", modes));
        o.println();
        for (Map.Entry<String, Object> e : config.entrySet()) {
            o.println("- " + e.getKey() + ": " + e.getValue());
        }
        long valid = runs.stream().filter(RunRecord::valid).count();
        o.println("- runs: " + runs.size() + ", valid: " + valid + ", invalid: " + (runs.size() - valid));
        o.println();
        o.println("Cells are min/median/max over runs. CCT: the coflow's completion time (mixed stream: the median"
                + " coflow CCT of a run). Drops: switch-port drops; retx: TcpRetransSegs; RTO: TcpExtTCPTimeouts;"
                + " SYN: TcpExtTCPSynRetrans; TLP: TcpExtTCPLossProbes (all summed over hosts); conns: max"
                + " concurrent TCP connections to other"
                + " hosts, per host and per host pair. emu CPU: the agent JVMs (the emulated hosts) plus softirq;"
                + " coord CPU: the coordinator process (courier+<scheduler> modes; it runs through every mode's"
                + " runs, so it shows in all rows), not in emu CPU. Runs failing a validity check (under load, reducer error,"
                + " merged bulk efficiency < 0.9, host NIC drops) are listed under \"all runs\" only.");
        for (Map.Entry<String, List<RunRecord>> e : byLabel(runs).entrySet()) {
            o.println();
            o.println("## " + e.getKey());
            o.println();
            o.println("| runs | mode | n | CCT s | efficiency | switch drops | loss % | retx | RTO | SYN | TLP"
                    + " | conns/host | conns/pair | emu CPU cores | coord CPU cores | foreign cores before |");
            o.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            for (boolean validOnly : new boolean[] {true, false}) {
                for (String mode : modes) {
                    List<RunRecord> rs = new ArrayList<>();
                    for (RunRecord r : e.getValue()) {
                        if (r.mode().equals(mode) && (!validOnly || r.valid())) {
                            rs.add(r);
                        }
                    }
                    o.printf(Locale.ROOT,
                            "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                            validOnly ? "valid" : "all (incl. invalid)", mode, rs.size(),
                            mmm(rs, r -> "mixed".equals(r.family()) ? r.medianCct() : r.cct(), "%.3f"),
                            mmm(rs, RunRecord::efficiency, "%.2f"), mmm(rs, r -> r.switchDrops(), "%.0f"),
                            mmm(rs, RunRecord::lossPct, "%.2f"), mmm(rs, r -> r.retransSegs(), "%.0f"),
                            mmm(rs, r -> r.timeouts(), "%.0f"), mmm(rs, r -> r.synRetrans(), "%.0f"),
                            mmm(rs, r -> r.lossProbes(), "%.0f"),
                            mmm(rs, r -> r.maxConnPerHost(), "%.0f"), mmm(rs, r -> r.maxConnPerPair(), "%.0f"),
                            mmm(rs, r -> r.agentCores() + r.softirqCores(), "%.2f"),
                            mmm(rs, RunRecord::coordinatorCores, "%.2f"),
                            mmm(rs, RunRecord::otherCoresBefore, "%.2f"));
                }
            }
            o.println();
            for (String mode : modes) {
                if (!mode.equals("stock")) {
                    o.println(ratioLine(e.getValue(), mode));
                    o.println();
                }
            }
            o.print(CpuSummary.table(e.getValue(), modes));
            List<String> reasons = new ArrayList<>();
            for (RunRecord r : e.getValue()) {
                if (!r.valid()) {
                    reasons.add(r.mode() + " #" + r.repeat() + ": " + String.join("; ", r.invalidReasons()));
                }
            }
            if (!reasons.isEmpty()) {
                o.println();
                o.println("Invalid runs: " + String.join(" | ", reasons));
            }
        }
        String fit = CpuSummary.segmentFit(runs, modes);
        if (!fit.isEmpty()) {
            o.println();
            o.print(fit);
        }
        o.flush();
        return sw.toString();
    }

    /** Courier's median CCT, drops and retransmissions relative to stock (valid runs; all runs when none). */
    static String ratioLine(List<RunRecord> runs) {
        return ratioLine(runs, "courier");
    }

    /** Mode {@code mode}'s median CCT, drops and retransmissions relative to stock (valid runs, then all runs). */
    static String ratioLine(List<RunRecord> runs, String mode) {
        StringBuilder b = new StringBuilder();
        for (boolean validOnly : new boolean[] {true, false}) {
            double[] s = medians(runs, "stock", validOnly);
            double[] c = medians(runs, mode, validOnly);
            if (Double.isNaN(s[0]) || Double.isNaN(c[0])) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "%s: %s median CCT %.3f s vs stock %.3f s (%+.0f%%);"
                            + " drops %.0f vs %.0f (%+.0f%%); retx %.0f vs %.0f (%+.0f%%). ",
                    validOnly ? "Valid runs" : "All runs", displayName(mode), c[0], s[0], pct(c[0], s[0]), c[1],
                    s[1], pct(c[1], s[1]), c[2], s[2], pct(c[2], s[2])));
        }
        return b.length() == 0 ? "No stock/" + displayName(mode) + " pair to compare." : b.toString().trim();
    }

    /** How a mode label reads in prose and legends: stock Hadoop, Courier, Courier+varys. */
    static String displayName(String mode) {
        if (mode.equals("stock")) {
            return "stock Hadoop";
        }
        return mode.startsWith("courier") ? "C" + mode.substring(1) : mode;
    }

    private static double pct(double a, double b) {
        return b == 0 ? 0 : 100.0 * (a - b) / b;
    }

    static double[] medians(List<RunRecord> runs, String mode, boolean validOnly) {
        List<RunRecord> rs = new ArrayList<>();
        for (RunRecord r : runs) {
            if (r.mode().equals(mode) && (!validOnly || r.valid())) {
                rs.add(r);
            }
        }
        return new double[] {med(rs, r -> "mixed".equals(r.family()) ? r.medianCct() : r.cct()),
            med(rs, r -> r.switchDrops()), med(rs, r -> r.retransSegs())};
    }

    static double med(List<RunRecord> rs, ToDoubleFunction<RunRecord> f) {
        List<Double> v = new ArrayList<>();
        for (RunRecord r : rs) {
            v.add(f.applyAsDouble(r));
        }
        return Stats.minMedMax(v)[1];
    }

    private static String mmm(List<RunRecord> rs, ToDoubleFunction<RunRecord> f, String fmt) {
        List<Double> v = new ArrayList<>();
        for (RunRecord r : rs) {
            v.add(f.applyAsDouble(r));
        }
        double[] m = Stats.minMedMax(v);
        if (Double.isNaN(m[1])) {
            return "–";
        }
        return String.format(Locale.ROOT, fmt + "/" + fmt + "/" + fmt, m[0], m[1], m[2]);
    }
}
