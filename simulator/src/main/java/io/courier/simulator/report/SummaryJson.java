package io.courier.simulator.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/**
 * Run summaries as one JSON object with the fields {@code workload}, {@code options} and {@code runs}, an array
 * with one object per run: {@code scheduler, courier, coflows, avgCct, p50Cct, p90Cct, p99Cct, avgWeightedCct,
 * makespan, maxConcurrentFlowsPerPort, meanConcurrentFlowsPerPort, decisions, wallSeconds}, {@code parameters}
 * (every effective scheduler parameter) and {@code bins} (for SN, LN, SW, LW: {@code coflows, avgCct, p99Cct}).
 * Times are seconds; a statistic that does not exist (NaN, e.g. the average of an empty bin) is {@code null},
 * because JSON has no NaN. The run fields are a stable interface for scripts: fields may be added, never removed.
 */
public final class SummaryJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private SummaryJson() {
    }

    /**
     * The document for these runs; {@code workload} and {@code options} (option name → value) describe the
     * command and may be null.
     */
    public static ObjectNode toJson(String workload, Map<String, ?> options, List<RunSummary> runs) {
        ObjectNode root = MAPPER.createObjectNode();
        if (workload != null) {
            root.put("workload", workload);
        }
        if (options != null) {
            root.set("options", MAPPER.valueToTree(options));
        }
        ArrayNode array = root.putArray("runs");
        for (RunSummary r : runs) {
            array.add(run(r));
        }
        return root;
    }

    private static ObjectNode run(RunSummary r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("scheduler", r.scheduler());
        o.put("courier", r.courier());
        o.put("coflows", r.coflows());
        putTime(o, "avgCct", r.avgCct());
        putTime(o, "p50Cct", r.p50Cct());
        putTime(o, "p90Cct", r.p90Cct());
        putTime(o, "p99Cct", r.p99Cct());
        putTime(o, "avgWeightedCct", r.avgWeightedCct());
        putTime(o, "makespan", r.makespan());
        o.put("maxConcurrentFlowsPerPort", r.maxConcurrentFlowsPerPort());
        putTime(o, "meanConcurrentFlowsPerPort", r.meanConcurrentFlowsPerPort());
        o.put("decisions", r.decisions());
        putTime(o, "wallSeconds", r.wallSeconds());
        if (r.resources() != null) {
            putTime(o, "cpuSeconds", r.resources().cpuSeconds());
            o.put("peakHeapBytes", r.resources().peakHeapBytes());
        }
        ObjectNode params = o.putObject("parameters");
        for (Map.Entry<String, String> e : r.parameters().entrySet()) {
            params.put(e.getKey(), e.getValue());
        }
        ObjectNode bins = o.putObject("bins");
        for (BinStats b : r.bins().values()) {
            ObjectNode bo = bins.putObject(b.bin().name());
            bo.put("coflows", b.coflows());
            putTime(bo, "avgCct", b.avgCct());
            putTime(bo, "p99Cct", b.p99Cct());
        }
        return o;
    }

    private static void putTime(ObjectNode o, String field, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(field);
        } else {
            o.put(field, v);
        }
    }

    /** Writes the document, pretty-printed, followed by a newline; {@code out} is flushed, not closed. */
    public static void write(ObjectNode document, Writer out) throws IOException {
        MAPPER.writeValue(out, document);
        out.write('\n');
        out.flush();
    }
}
