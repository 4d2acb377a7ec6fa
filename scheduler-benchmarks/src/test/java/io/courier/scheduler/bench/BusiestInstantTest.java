package io.courier.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.simulator.trace.CoflowBenchmarkTraceReader;
import io.courier.simulator.trace.CoflowTrace;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class BusiestInstantTest {
    private static final double MIB = 1048576.0;

    /**
     * Two racks at 1 MiB/s. A (0 s, 4 MiB 0->1) ends at 4 s. B (1 s, 2 MiB 0->1) queues behind A on up(0)
     * and down(1): ends at 6 s. C (5 s, 1 MiB 1->0) has free ports: ends at 6 s. Active: {A} at 0 s,
     * {A, B} at 1 s, {B, C} at 5 s. 1 s and 5 s tie on coflows and flows, so the earlier wins.
     */
    @Test
    void picksTheArrivalWithTheMostActiveCoflowsEarliestOnTies() throws IOException {
        CoflowTrace t = CoflowBenchmarkTraceReader.read(new StringReader("2 3\n"
                + "1 0 1 0 1 1:4\n"
                + "2 1000 1 0 1 1:2\n"
                + "3 5000 1 1 1 0:1\n"), "hand");
        BusiestInstant b = BusiestInstant.of(t, MIB);
        assertEquals(1.0, b.instant(), 0);
        assertEquals(2, b.active().size());
        assertEquals(1, b.active().get(0).coflow().id());
        assertEquals(0.25, b.active().get(0).elapsed(), 1e-12); // (1 - 0) / (4 - 0)
        assertEquals(2, b.active().get(1).coflow().id());
        assertEquals(0.0, b.active().get(1).elapsed(), 0);
        assertEquals(2, b.flowCount());
    }

    /** Same, but C has two flows: 5 s now wins the tie on flows; B is then 4/5 through its 1 s..6 s life. */
    @Test
    void moreFlowsBreakATieOnCoflows() throws IOException {
        CoflowTrace t = CoflowBenchmarkTraceReader.read(new StringReader("2 3\n"
                + "1 0 1 0 1 1:4\n"
                + "2 1000 1 0 1 1:2\n"
                + "3 5000 2 0 1 1 0:2\n"), "hand");
        BusiestInstant b = BusiestInstant.of(t, MIB);
        // C sends 1 MiB from each of racks 0 and 1; up(0) is busy with A and B until 6 s, so C ends at 7 s.
        assertEquals(5.0, b.instant(), 0);
        assertEquals(2, b.active().size());
        assertEquals(2, b.active().get(0).coflow().id());
        assertEquals(0.8, b.active().get(0).elapsed(), 1e-12);
        assertEquals(3, b.active().get(1).coflow().id());
        assertEquals(3, b.flowCount());
    }
}
