package io.courier.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class LoadScalingTest {
    @Test
    void divisionByKCompressesArrivalsAndKeepsEverythingElse() {
        Workload w = WorkloadFixtures.oneFlowCoflows(4).withCoflows("w", Arrays.asList(
                new WorkloadCoflow(1, 0, 2.0, Collections.singletonList(new WorkloadFlow(0, 1, 5.0, 0, 0))),
                new WorkloadCoflow(2, 3, 1.0, Collections.singletonList(new WorkloadFlow(1, 0, 7.0, 0, 0))),
                new WorkloadCoflow(3, 10, 1.0, Collections.singletonList(new WorkloadFlow(0, 1, 9.0, 0, 0)))));
        Workload s = LoadScaling.compress(w, 4);
        assertEquals(Arrays.asList(0.0, 0.75, 2.5), Arrays.asList(s.coflows().get(0).arrival(),
                s.coflows().get(1).arrival(), s.coflows().get(2).arrival()));
        for (int i = 0; i < 3; i++) {
            assertEquals(w.coflows().get(i).id(), s.coflows().get(i).id());
            assertEquals(w.coflows().get(i).weight(), s.coflows().get(i).weight(), 0);
            assertEquals(w.coflows().get(i).flows().toString(), s.coflows().get(i).flows().toString());
        }
        assertSame(w.network(), s.network());
        assertTrue(s.name().contains("arrivals / 4.0"), s.name());
        assertEquals(6.0, LoadScaling.compress(w, 0.5).coflows().get(1).arrival(), 0);
    }

    @Test
    void kOneIsTheIdentity() {
        Workload w = WorkloadFixtures.oneFlowCoflows(3);
        assertSame(w, LoadScaling.compress(w, 1));
    }

    @Test
    void nonPositiveOrNonFiniteKIsRejected() {
        Workload w = WorkloadFixtures.oneFlowCoflows(1);
        for (double k : new double[] {0, -2, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadScaling.compress(w, k));
            assertTrue(e.getMessage().contains("load scale factor K") && e.getMessage().contains(String.valueOf(k)),
                    e.getMessage());
        }
    }
}
