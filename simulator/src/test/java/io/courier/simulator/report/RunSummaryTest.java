package io.courier.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.ConcurrencyStats;
import io.courier.simulator.engine.SimulationResult;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class RunSummaryTest {
    @Test
    void headlineStatisticsOfTenCoflows() {
        RunSummary s = RunSummary.of(Results.tenCoflows("varys", true, 1.0));
        assertEquals("varys", s.scheduler());
        assertEquals("varys+courier", s.runName());
        assertEquals(10, s.coflows());
        assertEquals(5.5, s.avgCct(), 1e-12);
        assertEquals(5.0, s.p50Cct());
        assertEquals(9.0, s.p90Cct());
        assertEquals(10.0, s.p99Cct());
        // weights: coflow 1 (CCT 1) has weight 2 -> (2*1 + 2 + ... + 10) / 10
        assertEquals(5.6, s.avgWeightedCct(), 1e-12);
        assertEquals(20.0, s.makespan());
        assertEquals(7, s.maxConcurrentFlowsPerPort());
        assertEquals(2.5, s.meanConcurrentFlowsPerPort());
        assertEquals(123, s.decisions());
        assertEquals(0.25, s.wallSeconds());
    }

    @Test
    void perBinStatistics() {
        RunSummary s = RunSummary.of(Results.tenCoflows("fair", false, 2.0));
        // CCT = 2 * id
        assertEquals(4, s.bin(CoflowBin.SN).coflows());
        assertEquals(5.0, s.bin(CoflowBin.SN).avgCct(), 1e-12);
        assertEquals(8.0, s.bin(CoflowBin.SN).p99Cct());
        assertEquals(2, s.bin(CoflowBin.LN).coflows());
        assertEquals(11.0, s.bin(CoflowBin.LN).avgCct(), 1e-12);
        assertEquals(12.0, s.bin(CoflowBin.LN).p99Cct());
        assertEquals(15.0, s.bin(CoflowBin.SW).avgCct(), 1e-12);
        assertEquals(16.0, s.bin(CoflowBin.SW).p99Cct());
        assertEquals(19.0, s.bin(CoflowBin.LW).avgCct(), 1e-12);
        assertEquals(20.0, s.bin(CoflowBin.LW).p99Cct());
        assertEquals(30.0, s.makespan());
    }

    @Test
    void emptyBinsAndEmptyRunsHaveNaNTimes() {
        SimulationResult one = new SimulationResult("fifo", false, Collections.singletonList(
                new CoflowResult(3, 1.0, 4.0, 1.0, 100, 1, 100)), new ConcurrencyStats(1, 1.0), 2, 0.0);
        RunSummary s = RunSummary.of(one);
        assertEquals(3.0, s.avgCct());
        assertEquals(3.0, s.p99Cct());
        assertEquals(0, s.bin(CoflowBin.LW).coflows());
        assertTrue(Double.isNaN(s.bin(CoflowBin.LW).avgCct()));
        RunSummary empty = RunSummary.of(new SimulationResult("fifo", false, Collections.<CoflowResult>emptyList(),
                new ConcurrencyStats(0, 0.0), 0, 0.0));
        assertEquals(0, empty.coflows());
        assertTrue(Double.isNaN(empty.avgCct()));
        assertTrue(Double.isNaN(empty.p50Cct()));
        assertTrue(Double.isNaN(empty.makespan()));
    }
}
