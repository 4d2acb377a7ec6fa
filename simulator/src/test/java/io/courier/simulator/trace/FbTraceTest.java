package io.courier.simulator.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.simulator.trace.TraceFlows.Sizing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads the public FB trace (PAPER_RESULTS.md §0) and checks the statistics stated there. The file lives
 * outside the repository ({@code ../shared/data} of the project root, overridable with
 * {@code -Dcourier.fbTrace=…}); without it the tests are skipped, not failed.
 */
class FbTraceTest {
    private static Path file;
    private static CoflowTrace trace;

    @BeforeAll
    static void readTrace() throws IOException {
        file = FbTraceFile.path();
        trace = FbTraceFile.readIfPresent();
    }

    @BeforeEach
    void requireTrace() {
        // Per test rather than in @BeforeAll, so that each test is reported as skipped with this message.
        FbTraceFile.assumePresent(trace);
    }

    @Test
    void headerCountsAndArrivalSpan() {
        assertEquals(150, trace.racks());
        assertEquals(526, trace.coflows().size());
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        Set<Long> arrivals = new HashSet<>();
        for (TraceCoflow c : trace.coflows()) {
            min = Math.min(min, c.arrivalMillis());
            max = Math.max(max, c.arrivalMillis());
            arrivals.add(c.arrivalMillis());
        }
        assertEquals(0, min);
        assertEquals(3629235, max);
        assertEquals(3629.235, trace.coflows().get(525).arrivalSeconds(), 0);
        assertEquals(526, arrivals.size(), "no two coflows share an arrival time");
    }

    @Test
    void firstCoflowIsParsedAsWritten() {
        TraceCoflow first = trace.coflows().get(0); // "1 0 1 22 1 65:1.0"
        assertEquals(1, first.id());
        assertEquals(0, first.arrivalMillis());
        assertEquals(Arrays.asList(22), first.mapperRacks());
        assertEquals(Arrays.asList(new TraceReducer(65, 1.0)), first.reducers());
    }

    @Test
    void volumeAndWidthsMatchTheStatedStatistics() {
        double mb = 0;
        long widthSum = 0;
        long maxWidth = 0;
        double exactBytes = 0;
        double coflowSimBytes = 0;
        long coflowSimFlows = 0;
        for (TraceCoflow c : trace.coflows()) {
            mb += c.totalMegabytes();
            widthSum += c.width();
            maxWidth = Math.max(maxWidth, c.width());
            for (TraceFlow f : TraceFlows.expand(c, Sizing.EXACT)) {
                exactBytes += f.bytes();
            }
            for (TraceFlow f : TraceFlows.expand(c, Sizing.COFLOWSIM)) {
                coflowSimBytes += f.bytes();
                coflowSimFlows++;
            }
        }
        assertEquals(35533534.0, mb, 0);
        assertEquals(21170, maxWidth);
        assertEquals(706397, widthSum);
        // No rack repeats within a coflow and every reducer's MB is a multiple of its #mappers, so
        // CoflowSim's construction changes nothing on this trace.
        assertEquals(706397, coflowSimFlows);
        assertEquals(35533534.0 * 1048576, exactBytes, 1e-9 * exactBytes);
        assertEquals(35533534.0 * 1048576, coflowSimBytes, 0);
    }
}
