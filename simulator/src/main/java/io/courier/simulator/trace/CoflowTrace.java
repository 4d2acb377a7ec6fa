package io.courier.simulator.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A parsed coflow-benchmark trace: the number of racks (ports of the rack-level big switch) and the coflows
 * in file order. Every rack index lies in {@code [0, racks)} and coflow ids are unique. Immutable.
 */
public final class CoflowTrace {
    private final String source;
    private final int racks;
    private final List<TraceCoflow> coflows;

    public CoflowTrace(String source, int racks, List<TraceCoflow> coflows) {
        if (racks < 1) {
            throw new IllegalArgumentException(source + ": a trace needs at least one rack, got " + racks);
        }
        Set<Long> ids = new HashSet<>();
        for (TraceCoflow c : coflows) {
            if (!ids.add(c.id())) {
                throw new IllegalArgumentException(source + ": duplicate coflow id " + c.id());
            }
            for (int rack : c.mapperRacks()) {
                checkRack(source, racks, c, "mapper", rack);
            }
            for (TraceReducer r : c.reducers()) {
                checkRack(source, racks, c, "reducer", r.rack());
            }
        }
        this.source = source;
        this.racks = racks;
        this.coflows = Collections.unmodifiableList(new ArrayList<>(coflows));
    }

    private static void checkRack(String source, int racks, TraceCoflow c, String role, int rack) {
        if (rack >= racks) {
            throw new IllegalArgumentException(source + ": coflow " + c.id() + " has a " + role + " in rack " + rack
                    + ", outside [0, " + racks + ")");
        }
    }

    /** Where the trace came from (a file name or a caller-given name), for messages and reports. */
    public String source() {
        return source;
    }

    /** Number of racks, i.e. ports of the rack-level big switch. */
    public int racks() {
        return racks;
    }

    /** Coflows in file order. */
    public List<TraceCoflow> coflows() {
        return coflows;
    }

    @Override
    public String toString() {
        return "CoflowTrace(" + source + ", racks=" + racks + ", coflows=" + coflows.size() + ")";
    }
}
