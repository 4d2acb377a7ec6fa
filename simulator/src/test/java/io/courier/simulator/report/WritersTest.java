package io.courier.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.ConcurrencyStats;
import io.courier.simulator.engine.SimulationResult;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WritersTest {
    @Test
    void coflowCsvIsSortedByIdAndExact() throws IOException {
        SimulationResult r = new SimulationResult("fair", false, Arrays.asList(
                new CoflowResult(7, 0.5, 2.0, 1.0, 10485760, 2, 5242880),
                new CoflowResult(2, 0.0, 0.1, 2.5, 300, 3, 100)), new ConcurrencyStats(2, 1.5), 4, 0.01);
        StringWriter w = new StringWriter();
        CoflowCsv.write(r, w);
        assertEquals("id,arrival,finish,cct,weight,bytes,width,largestFlowBytes,bin\n"
                + "2,0,0.1,0.1,2.5,300,3,100,SN\n"
                + "7,0.5,2,1.5,1,10485760,2,5242880,LN\n", w.toString());
    }

    @Test
    void summaryJsonHasTheStableFieldsAndNullForMissingStatistics() throws IOException {
        RunSummary a = RunSummary.of(Results.tenCoflows("fair", false, 2.0));
        Map<String, String> params = new LinkedHashMap<>();
        params.put("epoch", "Infinity");
        SimulationResult single = new SimulationResult("aalo", true, Collections.singletonList(
                new CoflowResult(1, 0, 3, 1, 10, 1, 10)), new ConcurrencyStats(1, 1), 3, 0.5);
        RunSummary b = RunSummary.of(single, params);
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("seed", 7L);
        StringWriter w = new StringWriter();
        SummaryJson.write(SummaryJson.toJson("tiny", options, Arrays.asList(a, b)), w);
        JsonNode root = new ObjectMapper().readTree(w.toString());
        assertEquals("tiny", root.get("workload").asText());
        assertEquals(7, root.get("options").get("seed").asLong());
        JsonNode runs = root.get("runs");
        assertEquals(2, runs.size());
        JsonNode r0 = runs.get(0);
        for (String f : Arrays.asList("scheduler", "courier", "coflows", "avgCct", "p50Cct", "p90Cct", "p99Cct",
                "avgWeightedCct", "makespan", "maxConcurrentFlowsPerPort", "wallSeconds")) {
            assertTrue(r0.has(f), f);
        }
        assertEquals("fair", r0.get("scheduler").asText());
        assertFalse(r0.get("courier").asBoolean());
        assertEquals(10, r0.get("coflows").asInt());
        assertEquals(11.0, r0.get("avgCct").asDouble(), 1e-12);
        assertEquals(10.0, r0.get("p50Cct").asDouble());
        assertEquals(18.0, r0.get("p90Cct").asDouble());
        assertEquals(20.0, r0.get("p99Cct").asDouble());
        assertEquals(11.2, r0.get("avgWeightedCct").asDouble(), 1e-12);
        assertEquals(30.0, r0.get("makespan").asDouble());
        assertEquals(7, r0.get("maxConcurrentFlowsPerPort").asInt());
        assertEquals(0.25, r0.get("wallSeconds").asDouble());
        assertEquals(4, r0.get("bins").get("SN").get("coflows").asInt());
        assertEquals(5.0, r0.get("bins").get("SN").get("avgCct").asDouble(), 1e-12);
        JsonNode r1 = runs.get(1);
        assertTrue(r1.get("courier").asBoolean());
        assertEquals("Infinity", r1.get("parameters").get("epoch").asText());
        assertEquals(0, r1.get("bins").get("LW").get("coflows").asInt());
        assertTrue(r1.get("bins").get("LW").get("avgCct").isNull());
    }

    @Test
    void summaryCsvQuotesLabelsWithCommas() throws IOException {
        RunSummary a = RunSummary.of(Results.tenCoflows("aalo(queues=5,epoch=1)", false, 1.0));
        StringWriter w = new StringWriter();
        SummaryCsv.write(Collections.singletonList(a), w);
        String[] lines = w.toString().split("\n");
        assertEquals(2, lines.length);
        assertEquals(SummaryCsv.header(), lines[0]);
        assertEquals("\"aalo(queues=5,epoch=1)\",false,10,5.5,5,9,10,5.6,20,7,2.5,123,0.25,"
                + "4,2.5,4,2,5.5,6,2,7.5,8,2,9.5,10", lines[1]);
    }

    @Test
    void tableShowsEveryRunAndTheNormalizedBlock() {
        List<RunSummary> runs = Arrays.asList(RunSummary.of(Results.tenCoflows("fair", false, 2.0)),
                RunSummary.of(Results.tenCoflows("varys", true, 1.0)));
        String t = SummaryTable.render(runs, 0);
        assertTrue(t.contains("fair "), t);
        assertTrue(t.contains("varys+courier"), t);
        assertTrue(t.contains("CCT relative to fair"), t);
        // varys's CCTs are exactly half of fair's everywhere
        String rel = t.substring(t.indexOf("CCT relative to"));
        String varysRow = rel.substring(rel.indexOf("varys+courier"));
        varysRow = varysRow.substring(0, varysRow.indexOf('\n'));
        assertEquals(Arrays.asList("varys+courier", "0.500", "0.500", "0.500", "0.500", "0.500", "0.500", "0.500",
                "0.500", "0.500", "0.500"), Arrays.asList(varysRow.trim().split("\\s+")));
        String single = SummaryTable.render(runs.subList(0, 1), 0);
        assertFalse(single.contains("relative"), single);
    }

    @Test
    void coflowFileNamesAreSafeAndUnique() {
        assertEquals(Arrays.asList("coflows-fair.csv", "coflows-aalo_epoch=1_+courier.csv", "coflows-fair-2.csv",
                "coflows-a_b_.csv"), ReportFiles.coflowFileNames(Arrays.asList("fair", "aalo(epoch=1)+courier",
                "fair", "a/b ")));
    }
}
