package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuSummaryTest {
    private static RunRecord record(String family, String mode, double cct, boolean valid, long segments, long bytes,
            double agentSec, double fetchSec, double proxySec) {
        Map<ThreadRole, Double> roles = new EnumMap<>(ThreadRole.class);
        roles.put(ThreadRole.FETCH_WORKERS, fetchSec);
        roles.put(ThreadRole.PROXY_IO, proxySec);
        return new RunRecord(family, family, 0, mode, 0, "t", List.of(cct), cct, cct, 1.0, 1.0 / cct, 0, 1000,
                0, 0, 0, 0, 0, 0, 8, 7, 1, 1.0, 0.1, 0.8, 0.05, 0.01, 0.5, cct, List.of(), valid,
                valid ? List.of() : List.of("under load"),
                new RunCpu(segments, bytes, agentSec, List.of(agentSec / 2, agentSec / 2), new RoleCpu(roles, 100, 50, 21.0, null)));
    }

    @Test
    void tableShowsMedianCpuPerRoleBesideTheCctAndRatiosToStock() {
        List<RunRecord> runs = List.of(record("small", "stock", 2.0, true, 1200, 1 << 20, 4.0, 3.0, 0),
                record("small", "stock", 3.0, true, 1200, 1 << 20, 6.0, 5.0, 0),
                record("small", "stock", 9.0, false, 1200, 1 << 20, 60.0, 50.0, 0),
                record("small", "courier", 1.0, true, 1200, 1 << 20, 2.5, 0.5, 1.0));
        String t = CpuSummary.table(runs, List.of("stock", "courier"));
        assertTrue(t.contains("| mode | n | CCT s | agent CPU-s | proxy-io | planning | fetch-workers |"), t);
        // Stock: medians of the two valid runs (the invalid one is left out).
        assertTrue(t.contains("| stock | 2 | 2.500 | 5.00 | 0.00 | 0.00 | 4.00 |"), t);
        assertTrue(t.contains("| courier | 1 | 1.000 | 2.50 | 1.00 | 0.00 | 0.50 |"), t);
        // unattributed: 2.5 - 1.5
        assertTrue(t.contains("| 1.00 |\n"), t);
        assertTrue(t.contains("CPU Courier/stock: agent 0.50x (2.50 vs 5.00 s); proxy-io –; planning –;"
                + " fetch-workers 0.13x;"), t);
    }

    @Test
    void csvKeepsTheOldColumnsAndAddsTheCpuOnes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path csv = dir.resolve("runs.csv");
        Report.appendCsv(csv, record("small", "courier", 1.0, true, 1200, 1 << 20, 2.5, 0.5, 1.0));
        List<String> lines = java.nio.file.Files.readAllLines(csv);
        assertTrue(lines.get(0).startsWith("family,label,x,mode,repeat,started_at,cct_s,"), lines.get(0));
        assertTrue(lines.get(0).endsWith(",valid,invalid_reasons,errors,segments,shuffled_bytes,agent_cpu_s,"
                + "agent_cpu_s_by_host,cpu_proxy_io_s,cpu_planning_s,cpu_fetch_workers_s,cpu_relay_reader_s,"
                + "cpu_map_events_s,cpu_merge_s,cpu_shuffle_server_s,cpu_reduce_task_s,cpu_gc_s,cpu_jit_s,cpu_other_s,"
                + "cpu_unattributed_s,sampled_threads,cpu_samples,max_sample_gap_ms"), lines.get(0));
        assertTrue(lines.get(1).endsWith(",1200,1048576,2.5000,1.25;1.25,1.0000,0.0000,0.5000,0.0000,0.0000,0.0000,"
                + "0.0000,0.0000,0.0000,0.0000,0.0000,1.0000,100,50,21.0000"), lines.get(1));
    }

    @Test
    void invalidRunsAreUsedOnlyWhenNoneIsValid() {
        List<RunRecord> runs = List.of(record("small", "stock", 9.0, false, 1200, 1 << 20, 6.0, 5.0, 0));
        String t = CpuSummary.table(runs, List.of("stock"));
        assertTrue(t.contains("| stock | 1 (all) | 9.000 | 6.00 |"), t);
    }

    @Test
    void segmentSweepFitPerMode() {
        double gib = 1L << 30;
        List<RunRecord> runs = List.of(
                record("segment-sweep", "stock", 1, true, 1000, 0, 3.0, 0, 0),
                record("segment-sweep", "stock", 1, true, 1000, (long) gib, 7.0, 0, 0),
                record("segment-sweep", "courier", 1, true, 1000, 0, 1.0, 0, 0),
                record("segment-sweep", "courier", 1, true, 1000, (long) gib, 3.0, 0, 0),
                record("small", "courier", 1, true, 10, 0, 50.0, 0, 0));
        String f = CpuSummary.segmentFit(runs, List.of("stock", "courier"));
        assertTrue(f.contains("| stock | 2 | 3.000 | 4.00 | 0.000 |"), f);
        assertTrue(f.contains("| courier | 2 | 1.000 | 2.00 | 0.000 |"), f);
        assertTrue(CpuSummary.segmentFit(runs.subList(4, 5), List.of("courier")).isEmpty());
    }
}
