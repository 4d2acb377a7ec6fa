package io.courier.bench.netemu;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
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
 * Writes the YARN TeraSort benchmark's results: {@code runs.csv} and {@code runs.json} (every run, valid or not)
 * and {@code summary.md} (min/median/max per mode over the valid runs and, apart, over all runs; the Courier/stock
 * ratio per repeat). Stateless.
 */
final class YarnReport {
    static final String[] CSV_HEADER = {"repeat", "mode", "job_id", "started_at", "job_s", "shuffle_max_s",
        "shuffle_sum_s", "shuffle_bytes", "maps", "reduces", "failed_attempts", "switch_drops", "switch_packets",
        "loss_pct", "host_nic_drops", "retrans_segs", "rto_timeouts", "syn_retrans", "loss_probes", "active_opens",
        "max_conn_per_host", "max_conn_per_pair", "max_shuffle_conn_per_host", "max_shuffle_conn_per_pair",
        "busy_cores", "softirq_cores", "daemon_cores", "other_cores_before", "loadavg1", "validated",
        "output_matches", "valid", "invalid_reasons"};

    /** The columns of the summary table: name and how to read it from a record. */
    private record Metric(String name, ToDoubleFunction<YarnRunRecord> get, String format) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("job s", YarnRunRecord::jobSec, "%.1f"),
            new Metric("shuffle s (slowest reducer)", YarnRunRecord::shuffleMaxSec, "%.1f"),
            new Metric("shuffle s (sum)", YarnRunRecord::shuffleSumSec, "%.1f"),
            new Metric("switch drops", r -> r.switchDrops(), "%.0f"),
            new Metric("loss %", YarnRunRecord::lossPct, "%.2f"),
            new Metric("TcpRetransSegs", r -> r.retransSegs(), "%.0f"),
            new Metric("RTOs", r -> r.timeouts(), "%.0f"),
            new Metric("SYN retx", r -> r.synRetrans(), "%.0f"),
            new Metric("max conns/host", r -> r.maxConnPerHost(), "%.0f"),
            new Metric("max conns/pair", r -> r.maxConnPerPair(), "%.0f"),
            new Metric("max shuffle conns/host", r -> r.maxShuffleConnPerHost(), "%.0f"),
            new Metric("max shuffle conns/pair", r -> r.maxShuffleConnPerPair(), "%.0f"),
            new Metric("busy cores", YarnRunRecord::busyCores, "%.2f"));

    private YarnReport() {
    }

    static String csvLine(YarnRunRecord r) {
        Object[] v = {r.repeat(), r.mode(), r.jobId(), r.startedAt(), r.jobSec(), r.shuffleMaxSec(),
            r.shuffleSumSec(), r.shuffleBytes(), r.maps(), r.reduces(), r.failedAttempts(), r.switchDrops(),
            r.switchPackets(), String.format(Locale.ROOT, "%.3f", r.lossPct()), r.hostNicDrops(), r.retransSegs(),
            r.timeouts(), r.synRetrans(), r.lossProbes(), r.activeOpens(), r.maxConnPerHost(), r.maxConnPerPair(),
            r.maxShuffleConnPerHost(), r.maxShuffleConnPerPair(), fmt(r.busyCores()), fmt(r.softirqCores()),
            fmt(r.daemonCores()), fmt(r.otherCoresBefore()), fmt(r.loadavg1()), r.validated(), r.outputMatches(),
            r.valid(),
            "\"" + String.join("; ", r.invalidReasons()).replace("\"", "'") + "\""};
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ",").append(v[i]);
        }
        return b.toString();
    }

    static void appendCsv(Path csv, YarnRunRecord r) throws IOException {
        StringBuilder b = new StringBuilder();
        if (!Files.exists(csv)) {
            b.append(String.join(",", CSV_HEADER)).append('\n');
        }
        b.append(csvLine(r)).append('\n');
        Files.writeString(csv, b.toString(), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    static void writeAll(Path out, Map<String, Object> config, List<YarnRunRecord> runs) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("config", config);
        json.put("runs", runs);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("runs.json").toFile(),
                json);
        Files.writeString(out.resolve("summary.md"), summary(config, runs), StandardCharsets.UTF_8);
    }

    static String summary(Map<String, Object> config, List<YarnRunRecord> runs) {
        StringBuilder b = new StringBuilder("# TeraSort on the emulated network: stock shuffle vs Courier\n\n");
        for (Map.Entry<String, Object> e : config.entrySet()) {
            b.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        List<YarnRunRecord> valid = new ArrayList<>();
        for (YarnRunRecord r : runs) {
            if (r.valid()) {
                valid.add(r);
            }
        }
        b.append(String.format(Locale.ROOT, "%n%d runs, %d valid. Cells: min/median/max.%n", runs.size(),
                valid.size()));
        table(b, "Valid runs", valid);
        table(b, "All runs (including invalid ones)", runs);
        b.append("\n## Courier / stock, per repeat (all runs)\n\n| repeat | job time | shuffle (slowest reducer) |"
                + " switch drops | retransmissions |\n|---|---|---|---|---|\n");
        List<Double> job = new ArrayList<>();
        List<Double> shuffle = new ArrayList<>();
        for (YarnRunRecord c : runs) {
            if (!c.mode().equals("courier")) {
                continue;
            }
            for (YarnRunRecord s : runs) {
                if (s.mode().equals("stock") && s.repeat() == c.repeat()) {
                    double jr = c.jobSec() / s.jobSec();
                    double sr = c.shuffleMaxSec() / s.shuffleMaxSec();
                    job.add(jr);
                    shuffle.add(sr);
                    b.append(String.format(Locale.ROOT, "| %d | %.3f | %.3f | %d / %d | %d / %d |%n", c.repeat(), jr,
                            sr, c.switchDrops(), s.switchDrops(), c.retransSegs(), s.retransSegs()));
                }
            }
        }
        b.append(String.format(Locale.ROOT, "| median [min–max] | %s | %s | | |%n", mmm(job, "%.3f"),
                mmm(shuffle, "%.3f")));
        b.append("\n## Runs\n\n| repeat | mode | job s | shuffle s | drops | retrans | RTOs | conns/host |"
                + " shuffle conns/host, /pair | validated | valid |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (YarnRunRecord r : runs) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %d | %d | %d | %d | %d, %d | %s | %s |%n",
                    r.repeat(), r.mode(), r.jobSec(), r.shuffleMaxSec(), r.switchDrops(), r.retransSegs(),
                    r.timeouts(), r.maxConnPerHost(), r.maxShuffleConnPerHost(), r.maxShuffleConnPerPair(),
                    r.validated() && r.outputMatches() ? "yes" : "NO",
                    r.valid() ? "yes" : "no: " + String.join("; ", r.invalidReasons())));
        }
        return b.toString();
    }

    private static void table(StringBuilder b, String title, List<YarnRunRecord> runs) {
        b.append("\n## ").append(title).append("\n\n| metric | stock | Courier |\n|---|---|---|\n");
        for (Metric m : METRICS) {
            b.append("| ").append(m.name()).append(" | ").append(mmm(values(runs, "stock", m), m.format()))
                    .append(" | ").append(mmm(values(runs, "courier", m), m.format())).append(" |\n");
        }
    }

    private static List<Double> values(List<YarnRunRecord> runs, String mode, Metric m) {
        List<Double> v = new ArrayList<>();
        for (YarnRunRecord r : runs) {
            if (r.mode().equals(mode)) {
                v.add(m.get().applyAsDouble(r));
            }
        }
        return v;
    }

    static String mmm(List<Double> values, String format) {
        if (values.isEmpty()) {
            return "–";
        }
        double[] s = Stats.minMedMax(values);
        return String.format(Locale.ROOT, format + "/" + format + "/" + format, s[0], s[1], s[2]);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
