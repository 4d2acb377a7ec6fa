package io.courier.simulator.report;

import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.SimulationResult;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Per-coflow results of one run as CSV, one row per coflow sorted by id so that files of different runs
 * line up: {@code id,arrival,finish,cct,weight,bytes,width,largestFlowBytes,bin} (seconds, bytes, flows).
 * Numbers are written exactly ({@link Numbers#exact}).
 */
public final class CoflowCsv {
    /** The header line, without line terminator. */
    public static final String HEADER = "id,arrival,finish,cct,weight,bytes,width,largestFlowBytes,bin";

    private CoflowCsv() {
    }

    public static void write(SimulationResult run, Writer out) throws IOException {
        List<CoflowResult> rows = new ArrayList<>(run.coflows());
        rows.sort(Comparator.comparingLong(CoflowResult::id));
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (CoflowResult c : rows) {
            sb.append(c.id()).append(',')
                    .append(Numbers.exact(c.arrival())).append(',')
                    .append(Numbers.exact(c.finish())).append(',')
                    .append(Numbers.exact(c.cct())).append(',')
                    .append(Numbers.exact(c.weight())).append(',')
                    .append(Numbers.exact(c.bytes())).append(',')
                    .append(c.width()).append(',')
                    .append(Numbers.exact(c.largestFlowBytes())).append(',')
                    .append(CoflowBin.of(c)).append('\n');
            if (sb.length() > 1 << 16) {
                out.write(sb.toString());
                sb.setLength(0);
            }
        }
        out.write(sb.toString());
        out.flush();
    }
}
