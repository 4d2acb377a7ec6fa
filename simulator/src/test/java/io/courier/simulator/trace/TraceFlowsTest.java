package io.courier.simulator.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.simulator.trace.TraceFlows.Sizing;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceFlowsTest {
    private static final double MIB = 1048576.0;

    private static TraceCoflow coflow(List<Integer> mappers, TraceReducer... reducers) {
        return new TraceCoflow(1, 0, mappers, Arrays.asList(reducers));
    }

    private static TraceFlow flow(int src, int dst, double bytes) {
        return new TraceFlow(src, dst, bytes);
    }

    @Test
    void exactSplitsEachReducerEquallyOverTheMappersInFileOrderKeepingRackLocalPairs() {
        TraceCoflow c = coflow(Arrays.asList(2, 0), new TraceReducer(1, 3.0), new TraceReducer(2, 1.0));
        assertEquals(Arrays.asList(
                flow(2, 1, 1572864), flow(0, 1, 1572864),
                flow(2, 2, 524288), flow(0, 2, 524288)), // 2->2 is rack-local and kept
                TraceFlows.expand(c, Sizing.EXACT));
    }

    @Test
    void exactKeepsFractionalBytesAndDuplicateEntries() {
        TraceCoflow c = coflow(Arrays.asList(1, 1, 2), new TraceReducer(0, 1.0), new TraceReducer(0, 0.0));
        List<TraceFlow> flows = TraceFlows.expand(c, Sizing.EXACT);
        double third = MIB / 3; // 349525.333…
        assertEquals(Arrays.asList(
                flow(1, 0, third), flow(1, 0, third), flow(2, 0, third),
                flow(1, 0, 0), flow(1, 0, 0), flow(2, 0, 0)), flows);
        assertEquals(c.width(), flows.size());
    }

    @Test
    void coflowSimRoundsUpToAMultipleOfTheMapperRacksWithAtLeastOneMibPerFlow() {
        // Mapper racks {0, 2, 4}: M = 3. Reducer rack 1: 4 MiB + ceil(2.5) MiB = 7 MiB -> 9 MiB -> 3 MiB per flow.
        // Rack 3: 0.5 MB -> 1 MiB -> 3 MiB -> 1 MiB per flow. Rack 5: 0 MB -> at least 1 MiB per flow.
        TraceCoflow c = coflow(Arrays.asList(4, 0, 2),
                new TraceReducer(3, 0.5), new TraceReducer(1, 4.0), new TraceReducer(5, 0.0), new TraceReducer(1, 2.5));
        assertEquals(Arrays.asList(
                flow(0, 1, 3 * MIB), flow(2, 1, 3 * MIB), flow(4, 1, 3 * MIB),
                flow(0, 3, MIB), flow(2, 3, MIB), flow(4, 3, MIB),
                flow(0, 5, MIB), flow(2, 5, MIB), flow(4, 5, MIB)),
                TraceFlows.expand(c, Sizing.COFLOWSIM));
    }

    @Test
    void coflowSimMergesMappersOfOneRackAndRoundsEachReducerEntryBeforeMerging() {
        // Mappers 2, 0, 2 are two racks. Rack 1 receives 0.5 + 0.5 MB: each entry rounds up to 1 MiB
        // first (CoflowSim rounds reduce tasks before coalescing), so 2 MiB, one per mapper rack.
        TraceCoflow c = coflow(Arrays.asList(2, 0, 2), new TraceReducer(1, 0.5), new TraceReducer(1, 0.5));
        assertEquals(Arrays.asList(flow(0, 1, MIB), flow(2, 1, MIB)), TraceFlows.expand(c, Sizing.COFLOWSIM));
    }

    @Test
    void coflowSimTruncatesToWholeBytesBeforeRoundingToMib() {
        // 1.0000001 MB = 1048576.1048… bytes; CoflowSim truncates to 1048576 bytes, exactly 1 MiB.
        TraceCoflow c = coflow(Arrays.asList(0), new TraceReducer(1, 1.0000001));
        assertEquals(Arrays.asList(flow(0, 1, MIB)), TraceFlows.expand(c, Sizing.COFLOWSIM));
        assertEquals(1.0000001 * MIB, TraceFlows.expand(c, Sizing.EXACT).get(0).bytes(), 0);
    }

    @Test
    void coflowSimKeepsRackLocalPairs() {
        TraceCoflow c = coflow(Arrays.asList(1), new TraceReducer(1, 2.0));
        assertEquals(Arrays.asList(flow(1, 1, 2 * MIB)), TraceFlows.expand(c, Sizing.COFLOWSIM));
    }
}
