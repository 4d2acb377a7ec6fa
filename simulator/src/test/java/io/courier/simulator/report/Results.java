package io.courier.simulator.report;

import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.ConcurrencyStats;
import io.courier.simulator.engine.SimulationResult;
import java.util.ArrayList;
import java.util.List;

/** Hand-made simulation results for the report tests. */
final class Results {
    static final double MB = 1048576.0;

    private Results() {
    }

    /**
     * Ten coflows, ids 1..10, arriving at id seconds with CCT = id · scale seconds. Coflow 1 has weight 2, the
     * others 1. Bins: ids 1-4 SN (1 MB largest flow, 2 flows), 5-6 LN (10 MB, 3 flows), 7-8 SW (1 MB, 60 flows),
     * 9-10 LW (6 MB, 50 flows).
     */
    static SimulationResult tenCoflows(String scheduler, boolean courier, double scale) {
        List<CoflowResult> cs = new ArrayList<>();
        for (int id = 10; id >= 1; id--) { // completion order differs from id order on purpose
            double largest;
            int width;
            if (id <= 4) {
                largest = MB;
                width = 2;
            } else if (id <= 6) {
                largest = 10 * MB;
                width = 3;
            } else if (id <= 8) {
                largest = MB;
                width = 60;
            } else {
                largest = 6 * MB;
                width = 50;
            }
            cs.add(new CoflowResult(id, id, id + id * scale, id == 1 ? 2.0 : 1.0, largest * width, width, largest));
        }
        return new SimulationResult(scheduler, courier, cs, new ConcurrencyStats(7, 2.5), 123, 0.25);
    }
}
