package io.courier.simulator.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a trace coflow into flows between racks. The trace logs shuffle bytes only at the reducers, so a
 * reducer's bytes are split equally over the mappers: reduce-side skew is kept, map-side skew is lost
 * (PAPER_RESULTS.md §0).
 *
 * <p><b>Rack-local pairs are kept.</b> A mapper and a reducer in the same rack still get a flow, which in
 * the rack-level big switch uses {@code up(r)} and {@code down(r)}. CoflowSim does the same (it creates a
 * flow for every mapper of every reducer and charges both rack ports), and every seed result on the FB
 * trace comes from that model; dropping them would change each reducer's volume and break comparability.
 * Physically a rack-local shuffle may stay below the core, but the trace does not say how much of a
 * reducer's volume was rack-local; in {@code FB2010-1Hr-150-0} such pairs are 4 911 of 706 397 (0.7%).
 */
public final class TraceFlows {
    private static final long MIB = 1048576L;

    /** How flow sizes are derived from reducer volumes. */
    public enum Sizing {
        /**
         * One flow per (mapper entry, reducer entry) in file order — reducers outer, mappers inner — each
         * carrying {@code MB · 1048576 / #mappers} bytes, fractional bytes included. Duplicate racks are not
         * merged, so a coflow has exactly {@link TraceCoflow#width()} flows.
         */
        EXACT,
        /**
         * CoflowSim's construction (PAPER_RESULTS.md §0): mappers, and likewise reducers, in the same rack
         * are merged into one; each reducer entry's bytes are first rounded up to whole MiB, the merged
         * reducer's MiB are rounded up to a multiple of the number of mapper racks {@code M} and split
         * equally, and every flow is at least 1 MiB. Flows are ordered by (reducer rack, mapper rack), the
         * order in which CoflowSim iterates (SCHEDULERS.md §0.4).
         */
        COFLOWSIM
    }

    private TraceFlows() {
    }

    public static List<TraceFlow> expand(TraceCoflow coflow, Sizing sizing) {
        return sizing == Sizing.EXACT ? exact(coflow) : coflowSim(coflow);
    }

    private static List<TraceFlow> exact(TraceCoflow c) {
        // Unboxed once per coflow: the trace's wide coflows repeat their mappers for each of hundreds of reducers.
        int[] mappers = c.mapperRacks().stream().mapToInt(Integer::intValue).toArray();
        List<TraceFlow> out = new ArrayList<>((int) Math.min(Integer.MAX_VALUE, c.width()));
        for (TraceReducer r : c.reducers()) {
            double perMapper = r.bytes() / mappers.length;
            for (int m : mappers) {
                out.add(new TraceFlow(m, r.rack(), perMapper));
            }
        }
        return Collections.unmodifiableList(out);
    }

    private static List<TraceFlow> coflowSim(TraceCoflow c) {
        SortedSet<Integer> mapperRacks = new TreeSet<>(c.mapperRacks());
        long m = mapperRacks.size();
        Map<Integer, Long> mibPerReducerRack = new TreeMap<>();
        for (TraceReducer r : c.reducers()) {
            // CoflowSim truncates MB·2^20 to whole bytes, then rounds up to whole MiB per reducer entry.
            long mib = ceilDiv((long) (r.megabytes() * MIB), MIB);
            Long sum = mibPerReducerRack.get(r.rack());
            try {
                mibPerReducerRack.put(r.rack(), sum == null ? mib : Math.addExact(sum, mib));
            } catch (ArithmeticException e) {
                throw new ArithmeticException("coflow " + c.id() + ": volume of reducer rack " + r.rack()
                        + " overflows a long");
            }
        }
        List<TraceFlow> out = new ArrayList<>(mibPerReducerRack.size() * mapperRacks.size());
        for (Map.Entry<Integer, Long> e : mibPerReducerRack.entrySet()) {
            long perFlowMib = Math.max(1, ceilDiv(e.getValue(), m));
            double bytes = (double) perFlowMib * MIB;
            for (int mapper : mapperRacks) {
                out.add(new TraceFlow(mapper, e.getKey(), bytes));
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** Rounding the total up to a multiple of {@code m} and dividing by {@code m} is a ceiling division. */
    private static long ceilDiv(long x, long m) {
        return x / m + (x % m == 0 ? 0 : 1);
    }
}
