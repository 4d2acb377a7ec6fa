package io.courier.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.courier.simulator.trace.CoflowTrace;
import io.courier.simulator.trace.FbTraceFile;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The public FB trace as a workload. Like {@code trace.FbTraceTest}, the file is looked up at
 * {@code -Dcourier.fbTrace=…} or {@code ../../shared/data} relative to the module, and the tests are skipped
 * with a message when it is absent.
 */
class FbTraceWorkloadTest {
    private static final double MIB = 1048576.0;
    private static Path file;
    private static CoflowTrace trace;

    @BeforeAll
    static void readTrace() throws IOException {
        file = FbTraceFile.path();
        trace = FbTraceFile.readIfPresent();
    }

    @BeforeEach
    void requireTrace() {
        FbTraceFile.assumePresent(trace);
    }

    private static void checkShape(Workload w, double lastArrival) {
        assertEquals(150, w.network().hostCount());
        assertEquals("rack149", w.network().hostName(149));
        assertEquals(134217728.0, w.network().capacity(w.network().up(17)), 0);
        assertEquals(526, w.coflows().size());
        assertEquals(706397, w.flowCount());
        double bytes = 0;
        for (WorkloadCoflow c : w.coflows()) {
            bytes += c.totalBytes();
        }
        assertEquals(35533534.0 * MIB, bytes, 1e-9 * bytes);
        WorkloadCoflow first = w.coflows().get(0); // "1 0 1 22 1 65:1.0"
        assertEquals(1, first.id());
        assertEquals("22->65:1048576.0(r0,m0)", first.flows().get(0).toString());
        assertEquals(lastArrival, w.coflows().get(525).arrival(), 0);
    }

    @Test
    void exactWorkload() {
        checkShape(TraceWorkloads.defaults().convert(trace), 3629.235);
    }

    @Test
    void coflowSimCompatWorkload() {
        checkShape(TraceWorkloads.coflowSimCompat().convert(trace), 3629235 / 1024.0);
    }
}
