package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PlansTest {
    private static List<Scenario> segmentSweep(boolean quick) throws Exception {
        return Plans.build(quick, 8, 50_000_000L, null, 8, List.of("segment-sweep"));
    }

    @Test
    void segmentSweepVariesOnlyTheSegmentSize() throws Exception {
        List<Scenario> full = segmentSweep(false);
        assertEquals(5, full.size());
        long[] expected = {4096, 16384, 65536, 262144, 1048576};
        for (int i = 0; i < full.size(); i++) {
            Scenario s = full.get(i);
            assertEquals("segment-sweep", s.family());
            assertEquals(expected[i], (long) s.x());
            assertEquals(0, s.repeats(), "the full plan uses the run's repeats");
            CoflowSpec c = s.coflows().get(0);
            assertEquals(expected[i], c.segmentBytes());
            assertEquals(Plans.REDUCERS, c.reducersPerHost());
            assertEquals(Plans.FETCHES, c.parallelCopies());
            assertEquals(1, c.mapsPerHost());
        }
        assertEquals("segment 4 KB per reducer x host", full.get(0).label());
    }

    @Test
    void quickSegmentSweepRunsTheEndsAndTheMiddle() throws Exception {
        List<Scenario> quick = segmentSweep(true);
        assertEquals(List.of(4096.0, 65536.0, 1048576.0), quick.stream().map(Scenario::x).toList());
        assertEquals(2, quick.get(0).repeats());
    }
}
