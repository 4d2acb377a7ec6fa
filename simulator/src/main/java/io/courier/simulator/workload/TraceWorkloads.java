package io.courier.simulator.workload;

import io.courier.scheduler.model.Network;
import io.courier.simulator.trace.CoflowTrace;
import io.courier.simulator.trace.TraceCoflow;
import io.courier.simulator.trace.TraceFlow;
import io.courier.simulator.trace.TraceFlows;
import io.courier.simulator.trace.TraceFlows.Sizing;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a parsed coflow-benchmark trace into a {@link Workload}: a big switch of {@code racks} hosts named
 * {@code rack0, rack1, …}, every up and down port at one capacity, flows from {@link TraceFlows}, weight 1.
 *
 * <p>Flow {@code mapper} is the index of the mapper entry and {@code reducer} that of the reducer entry the
 * flow belongs to: in {@link Sizing#EXACT} mode the entries in file order (duplicate racks stay separate
 * entries); in {@link Sizing#COFLOWSIM} mode the merged racks in ascending rack order, as CoflowSim
 * coalesces tasks of one rack.
 *
 * <p><b>Time.</b> {@link ArrivalUnit#MILLISECONDS} reads arrivals as ms / 1000 (the trace's meaning).
 * {@link ArrivalUnit#COFLOWSIM_MILLISECONDS} reads them as ms / 1024, CoflowSim's convention (PAPER_RESULTS.md
 * §0: 1024 simulated ms = 1 s, in which a port moves 128 MiB). With that unit a CoflowSim CCT in its ms,
 * divided by 1024, is directly comparable with ours in seconds, and CoflowSim's admission epoch of
 * {@code 10·1024} ms is {@link #COFLOWSIM_ADMISSION_EPOCH} = 10 s of engine time (engine option
 * {@code admissionEpoch}). {@link #coflowSimCompat()} selects that unit and CoflowSim sizing. Immutable.
 */
public final class TraceWorkloads {
    /** CoflowSim's {@code RACK_BITS_PER_SEC = 1024·1048576} bit/s, in bytes/s: 128 MiB/s. */
    public static final double COFLOWSIM_PORT_CAPACITY = 1024.0 * 1048576.0 / 8;
    /** CoflowSim's admission epoch ({@code simulationTimestep = 10·1024} ms) in seconds of CoflowSim time. */
    public static final double COFLOWSIM_ADMISSION_EPOCH = 10.0;

    /** How the trace's arrival milliseconds become seconds. */
    public enum ArrivalUnit {
        /** ms / 1000: the trace's wall-clock meaning. */
        MILLISECONDS(1000.0),
        /** ms / 1024: CoflowSim's simulated milliseconds, 1024 to a second. */
        COFLOWSIM_MILLISECONDS(1024.0);

        private final double perSecond;

        ArrivalUnit(double perSecond) {
            this.perSecond = perSecond;
        }

        public double seconds(long millis) {
            return millis / perSecond;
        }
    }

    private final Sizing sizing;
    private final double portCapacity;
    private final ArrivalUnit arrivalUnit;

    private TraceWorkloads(Sizing sizing, double portCapacity, ArrivalUnit arrivalUnit) {
        if (sizing == null || arrivalUnit == null) {
            throw new IllegalArgumentException("trace conversion: sizing and arrival unit must not be null");
        }
        if (!(portCapacity > 0) || Double.isInfinite(portCapacity)) {
            throw new IllegalArgumentException("trace conversion: port capacity must be finite and > 0 bytes/s, got "
                    + portCapacity);
        }
        this.sizing = sizing;
        this.portCapacity = portCapacity;
        this.arrivalUnit = arrivalUnit;
    }

    /** Exact flow sizes, 128 MiB/s ports, arrivals in real milliseconds (PAPER_RESULTS.md §6, items 1-2). */
    public static TraceWorkloads defaults() {
        return new TraceWorkloads(Sizing.EXACT, COFLOWSIM_PORT_CAPACITY, ArrivalUnit.MILLISECONDS);
    }

    /** CoflowSim's flow construction and time unit, 128 MiB/s ports (the input half of --coflowsim-compat). */
    public static TraceWorkloads coflowSimCompat() {
        return new TraceWorkloads(Sizing.COFLOWSIM, COFLOWSIM_PORT_CAPACITY, ArrivalUnit.COFLOWSIM_MILLISECONDS);
    }

    public TraceWorkloads withSizing(Sizing newSizing) {
        return new TraceWorkloads(newSizing, portCapacity, arrivalUnit);
    }

    /** Capacity of every up and down port, bytes/s. */
    public TraceWorkloads withPortCapacity(double bytesPerSecond) {
        return new TraceWorkloads(sizing, bytesPerSecond, arrivalUnit);
    }

    public TraceWorkloads withArrivalUnit(ArrivalUnit unit) {
        return new TraceWorkloads(sizing, portCapacity, unit);
    }

    public Sizing sizing() {
        return sizing;
    }

    public double portCapacity() {
        return portCapacity;
    }

    public ArrivalUnit arrivalUnit() {
        return arrivalUnit;
    }

    public Workload convert(CoflowTrace trace) {
        Network.Builder net = Network.builder();
        for (int r = 0; r < trace.racks(); r++) {
            net.host("rack" + r, portCapacity, portCapacity);
        }
        List<WorkloadCoflow> coflows = new ArrayList<>(trace.coflows().size());
        for (TraceCoflow c : trace.coflows()) {
            List<TraceFlow> flows = TraceFlows.expand(c, sizing);
            List<WorkloadFlow> out = sizing == Sizing.EXACT ? exact(trace, c, flows) : byRack(flows);
            coflows.add(new WorkloadCoflow(c.id(), arrivalUnit.seconds(c.arrivalMillis()), 1.0, out));
        }
        return new Workload(trace.source() + " (" + describe() + ")", net.build(), coflows);
    }

    /** EXACT lists reducer entries outer, mapper entries inner, so the entry indices follow from the position. */
    private static List<WorkloadFlow> exact(CoflowTrace trace, TraceCoflow c, List<TraceFlow> flows) {
        int mappers = c.mapperRacks().size();
        List<WorkloadFlow> out = new ArrayList<>(flows.size());
        for (int i = 0; i < flows.size(); i++) {
            TraceFlow f = flows.get(i);
            int reducer = i / mappers;
            if (!(f.bytes() > 0)) {
                // A zero-byte flow would complete before it starts; the model requires bytes > 0, and
                // silently dropping it would hide a trace problem. CoflowSim sizing rounds it up to 1 MiB.
                throw new IllegalArgumentException(trace.source() + ": coflow " + c.id() + ", reducer " + (reducer + 1)
                        + " of " + c.reducers().size() + " (rack " + f.reducerRack() + ") receives 0 MB, which EXACT"
                        + " sizing cannot turn into flows; use CoflowSim sizing, which makes every flow at least"
                        + " 1 MiB");
            }
            out.add(new WorkloadFlow(f.mapperRack(), f.reducerRack(), f.bytes(), reducer, i % mappers));
        }
        return out;
    }

    /** COFLOWSIM lists flows by (reducer rack, mapper rack): first-seen order is ascending rack order. */
    private static List<WorkloadFlow> byRack(List<TraceFlow> flows) {
        Map<Integer, Integer> reducerIndex = new HashMap<>();
        Map<Integer, Integer> mapperIndex = new HashMap<>();
        List<WorkloadFlow> out = new ArrayList<>(flows.size());
        for (TraceFlow f : flows) {
            Integer r = reducerIndex.get(f.reducerRack());
            if (r == null) {
                r = reducerIndex.size();
                reducerIndex.put(f.reducerRack(), r);
            }
            Integer m = mapperIndex.get(f.mapperRack());
            if (m == null) {
                m = mapperIndex.size();
                mapperIndex.put(f.mapperRack(), m);
            }
            out.add(new WorkloadFlow(f.mapperRack(), f.reducerRack(), f.bytes(), r, m));
        }
        return out;
    }

    private String describe() {
        return sizing.name().toLowerCase(java.util.Locale.ROOT) + " sizing, " + portCapacity + " B/s ports, arrival "
                + (arrivalUnit == ArrivalUnit.MILLISECONDS ? "ms/1000" : "ms/1024");
    }
}
