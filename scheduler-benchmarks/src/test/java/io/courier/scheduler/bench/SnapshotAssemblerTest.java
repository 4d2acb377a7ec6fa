package io.courier.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.simulator.trace.TraceCoflow;
import io.courier.simulator.trace.TraceReducer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotAssemblerTest {
    private static final double MIB = 1048576.0;

    private static ActiveCoflow coflow(long id, long arrivalMillis, List<Integer> mappers, TraceReducer reducer,
            double elapsed) {
        return new ActiveCoflow(new TraceCoflow(id, arrivalMillis, mappers, Collections.singletonList(reducer)),
                elapsed);
    }

    /**
     * Capacity 6 on 3 racks. C1: racks 0, 1, 2 -> rack 2, 1 MiB each; C2: rack 1 -> rack 0, 1 MiB. Unfinished
     * flows per port: up 1/2/1, down(0) 1, down(2) 3. Fair shares: C1's flows min(6/n_up, 6/3) = 2, C2's
     * min(6/2, 6/1) = 3.
     */
    @Test
    void justArrivedCoflowsHaveSentNothingAndFairShareRates() {
        ClusterState s = SnapshotAssembler.assemble(3, 6.0, 1.0, Arrays.asList(
                coflow(1, 0, Arrays.asList(2, 0, 1), new TraceReducer(2, 3.0), 0.0),
                coflow(2, 500, Arrays.asList(1), new TraceReducer(0, 1.0), 0.0)), 7);
        assertEquals(1.0, s.now(), 0);
        assertEquals(2, s.coflowCount());
        assertEquals(0.5, s.coflow(1).arrival(), 0);
        assertEquals(4, s.flowCount());
        int[][] endpoints = {{0, 2}, {1, 2}, {2, 2}, {1, 0}};
        double[] rates = {2, 2, 2, 3};
        for (int i = 0; i < 4; i++) {
            Flow f = s.flow(s.indexOf(FlowId.of(i + 1)));
            assertEquals(endpoints[i][0], f.src(), f.toString());
            assertEquals(endpoints[i][1], f.dst(), f.toString());
            assertEquals(MIB, f.size(), 0);
            assertEquals(0, f.sent(), 0);
            assertFalse(f.finished());
            assertEquals(rates[i], f.measuredRate(), 0, f.toString());
            assertEquals(rates[i], f.lastDesiredRate(), 0, f.toString());
        }
        for (int c = 0; c < 2; c++) {
            double w = s.coflow(c).weight();
            assertTrue(w >= 1 && w <= 5 && w == Math.rint(w), "weight " + w);
        }
    }

    /** Single-flow coflows near their end: about half the draws would finish the flow, which keeps φ instead. */
    @Test
    void everyCoflowKeepsAnUnfinishedFlow() {
        List<ActiveCoflow> active = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            active.add(coflow(i, i, Arrays.asList(0), new TraceReducer(1, 1.0), 0.99));
        }
        ClusterState s = SnapshotAssembler.assemble(2, MIB, 1.0, active, 3);
        int kept = 0;
        for (Flow f : s.flows()) {
            assertFalse(f.finished(), f.toString());
            assertTrue(f.sent() < f.size(), f.toString());
            if (f.sent() == 0.99 * MIB) {
                kept++;
            }
        }
        assertTrue(kept > 0, "some flows should have drawn completion and kept the coflow's progress");
    }

    @Test
    void aCoflowArrivingAfterTheInstantIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SnapshotAssembler.assemble(
                2, MIB, 1.0, Arrays.asList(coflow(9, 1500, Arrays.asList(0), new TraceReducer(1, 1.0), 0.0)), 1));
        assertTrue(e.getMessage().contains("coflow 9 arrives at 1.5 s, after the snapshot instant 1.0 s"),
                e.getMessage());
    }
}
