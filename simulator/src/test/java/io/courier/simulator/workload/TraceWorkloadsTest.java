package io.courier.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.Network;
import io.courier.simulator.trace.CoflowBenchmarkTraceReader;
import io.courier.simulator.trace.CoflowTrace;
import io.courier.simulator.trace.TraceFlows.Sizing;
import io.courier.simulator.workload.TraceWorkloads.ArrivalUnit;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceWorkloadsTest {
    private static final double MIB = 1048576.0;
    private static final double PORT = 134217728.0; // 1024 * 1048576 bit/s = 128 MiB/s

    private static CoflowTrace trace(String text) throws IOException {
        return CoflowBenchmarkTraceReader.read(new StringReader(text), "inline");
    }

    private static final String TWO_COFLOWS = "4 2\n"
            + "1 0 2 0 3 2 1:2.0 2:1.0\n"
            + "2 1500 1 1 1 0:3.0\n";

    /** Flows as "src->dst:bytes(rR,mM)", the model's own toString. */
    private static List<String> flows(WorkloadCoflow c) {
        List<String> out = new ArrayList<>();
        for (WorkloadFlow f : c.flows()) {
            out.add(f.toString());
        }
        return out;
    }

    private static String f(int src, int dst, double bytes, int reducer, int mapper) {
        return new WorkloadFlow(src, dst, bytes, reducer, mapper).toString();
    }

    @Test
    void defaultsGiveRackHostsAtCoflowSimCapacityAndExactFlows() throws IOException {
        Workload w = TraceWorkloads.defaults().convert(trace(TWO_COFLOWS));
        Network n = w.network();
        assertEquals(4, n.hostCount());
        for (int h = 0; h < 4; h++) {
            assertEquals("rack" + h, n.hostName(h));
            assertEquals(PORT, n.capacity(n.up(h)), 0);
            assertEquals(PORT, n.capacity(n.down(h)), 0);
        }
        assertEquals(0, n.linkCount());
        assertEquals(2, w.coflows().size());
        WorkloadCoflow c1 = w.coflows().get(0);
        assertEquals(1, c1.id());
        assertEquals(0.0, c1.arrival(), 0);
        assertEquals(1.0, c1.weight(), 0);
        // Reducer entries outer, mapper entries inner; 2 MB over 2 mappers, 1 MB over 2 mappers.
        assertEquals(Arrays.asList(f(0, 1, MIB, 0, 0), f(3, 1, MIB, 0, 1),
                f(0, 2, MIB / 2, 1, 0), f(3, 2, MIB / 2, 1, 1)), flows(c1));
        WorkloadCoflow c2 = w.coflows().get(1);
        assertEquals(2, c2.id());
        assertEquals(1.5, c2.arrival(), 0);
        assertEquals(Arrays.asList(f(1, 0, 3 * MIB, 0, 0)), flows(c2));
        assertEquals(5, w.flowCount());
        assertTrue(w.name().startsWith("inline"), w.name());
    }

    @Test
    void exactKeepsDuplicateEntriesAsSeparateReducersAndMappers() throws IOException {
        // Mapper entries 2, 0, 2; reducer entries 1:0.5, 3:4.0, 1:2.5 (rack 1 twice).
        Workload w = TraceWorkloads.defaults().convert(trace("4 1\n3 10 3 2 0 2 3 1:0.5 3:4.0 1:2.5\n"));
        WorkloadCoflow c = w.coflows().get(0);
        assertEquals(0.01, c.arrival(), 0);
        assertEquals(Arrays.asList(
                f(2, 1, MIB * 0.5 / 3, 0, 0), f(0, 1, MIB * 0.5 / 3, 0, 1), f(2, 1, MIB * 0.5 / 3, 0, 2),
                f(2, 3, MIB * 4.0 / 3, 1, 0), f(0, 3, MIB * 4.0 / 3, 1, 1), f(2, 3, MIB * 4.0 / 3, 1, 2),
                f(2, 1, MIB * 2.5 / 3, 2, 0), f(0, 1, MIB * 2.5 / 3, 2, 1), f(2, 1, MIB * 2.5 / 3, 2, 2)), flows(c));
    }

    @Test
    void coflowSimCompatMergesRacksNumbersThemInRackOrderAndReadsMillisAs1024ths() throws IOException {
        Workload w = TraceWorkloads.coflowSimCompat().convert(trace("4 1\n3 1500 3 2 0 2 3 3:4.0 1:0.5 1:2.5\n"));
        WorkloadCoflow c = w.coflows().get(0);
        assertEquals(1500 / 1024.0, c.arrival(), 0);
        // Mapper racks {0, 2}; rack 1: ceil(0.5) + ceil(2.5) = 4 MiB -> 2 MiB per flow; rack 3: 4 MiB -> 2 MiB.
        assertEquals(Arrays.asList(f(0, 1, 2 * MIB, 0, 0), f(2, 1, 2 * MIB, 0, 1),
                f(0, 3, 2 * MIB, 1, 0), f(2, 3, 2 * MIB, 1, 1)), flows(c));
        assertEquals(PORT, w.network().capacity(w.network().up(0)), 0);
    }

    @Test
    void optionsCombineIndependently() throws IOException {
        TraceWorkloads t = TraceWorkloads.defaults().withSizing(Sizing.COFLOWSIM).withPortCapacity(1.25e8);
        assertEquals(ArrivalUnit.MILLISECONDS, t.arrivalUnit());
        Workload w = t.convert(trace(TWO_COFLOWS));
        assertEquals(1.25e8, w.network().capacity(w.network().down(3)), 0);
        assertEquals(1.5, w.coflows().get(1).arrival(), 0);
        // COFLOWSIM: 1 MB reducer over 2 mapper racks -> rounded up to 2 MiB -> 1 MiB per flow.
        assertEquals(Arrays.asList(f(0, 1, MIB, 0, 0), f(3, 1, MIB, 0, 1), f(0, 2, MIB, 1, 0), f(3, 2, MIB, 1, 1)),
                flows(w.coflows().get(0)));
        Workload compatTimeOnly = TraceWorkloads.defaults().withArrivalUnit(ArrivalUnit.COFLOWSIM_MILLISECONDS)
                .convert(trace(TWO_COFLOWS));
        assertEquals(1500 / 1024.0, compatTimeOnly.coflows().get(1).arrival(), 0);
        assertEquals(MIB / 2, compatTimeOnly.coflows().get(0).flows().get(2).bytes(), 0);
    }

    @Test
    void arrivalUnitsConvertMillis() {
        assertEquals(3629.235, ArrivalUnit.MILLISECONDS.seconds(3629235), 0);
        assertEquals(10.0, ArrivalUnit.COFLOWSIM_MILLISECONDS.seconds(10240), 0);
        assertEquals(10.0, TraceWorkloads.COFLOWSIM_ADMISSION_EPOCH, 0);
        assertEquals(PORT, TraceWorkloads.COFLOWSIM_PORT_CAPACITY, 0);
    }

    @Test
    void zeroMegabyteReducerFailsInExactModeNamingCoflowAndReducerButBecomesOneMibInCoflowSimMode()
            throws IOException {
        CoflowTrace t = trace("3 1\n7 0 1 0 2 1:1.0 2:0\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TraceWorkloads.defaults().convert(t));
        assertTrue(e.getMessage().contains("coflow 7, reducer 2 of 2 (rack 2) receives 0 MB"), e.getMessage());
        Workload w = TraceWorkloads.coflowSimCompat().convert(t);
        assertEquals(Arrays.asList(f(0, 1, MIB, 0, 0), f(0, 2, MIB, 1, 0)), flows(w.coflows().get(0)));
    }

    @Test
    void invalidPortCapacitiesAreRejected() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TraceWorkloads.defaults().withPortCapacity(bad));
            assertTrue(e.getMessage().contains("port capacity"), e.getMessage());
        }
    }
}
