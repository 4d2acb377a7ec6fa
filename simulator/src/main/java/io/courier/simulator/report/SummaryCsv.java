package io.courier.simulator.report;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Run summaries as CSV, one row per run, with the same fields as {@link SummaryJson} (bins flattened to
 * {@code SN_coflows,SN_avgCct,SN_p99Cct,…}; parameters left out). Empty cells stand for NaN.
 */
public final class SummaryCsv {
    private SummaryCsv() {
    }

    public static String header() {
        StringBuilder sb = new StringBuilder("scheduler,courier,coflows,avgCct,p50Cct,p90Cct,p99Cct,avgWeightedCct,"
                + "makespan,maxConcurrentFlowsPerPort,meanConcurrentFlowsPerPort,decisions,wallSeconds");
        for (CoflowBin b : CoflowBin.values()) {
            sb.append(',').append(b).append("_coflows,").append(b).append("_avgCct,").append(b).append("_p99Cct");
        }
        return sb.toString();
    }

    public static void write(List<RunSummary> runs, Writer out) throws IOException {
        StringBuilder sb = new StringBuilder(header()).append('\n');
        for (RunSummary r : runs) {
            sb.append(quote(r.scheduler())).append(',').append(r.courier()).append(',').append(r.coflows());
            for (double v : new double[] {r.avgCct(), r.p50Cct(), r.p90Cct(), r.p99Cct(), r.avgWeightedCct(),
                    r.makespan()}) {
                sb.append(',').append(Numbers.exact(v));
            }
            sb.append(',').append(r.maxConcurrentFlowsPerPort())
                    .append(',').append(Numbers.exact(r.meanConcurrentFlowsPerPort()))
                    .append(',').append(r.decisions())
                    .append(',').append(Numbers.exact(r.wallSeconds()));
            for (CoflowBin b : CoflowBin.values()) {
                BinStats s = r.bin(b);
                sb.append(',').append(s.coflows()).append(',').append(Numbers.exact(s.avgCct()))
                        .append(',').append(Numbers.exact(s.p99Cct()));
            }
            sb.append('\n');
        }
        out.write(sb.toString());
        out.flush();
    }

    /** Labels such as {@code aalo(queues=5,epoch=1)} contain commas: RFC 4180 quoting. */
    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
