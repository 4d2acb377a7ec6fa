package io.courier.simulator.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One coflow (one job's shuffle) of a coflow-benchmark trace: its id, its arrival time in milliseconds as
 * written in the file, the racks of its mappers and its reducers. Entries keep the file's order; the same
 * rack may appear more than once. Immutable.
 */
public final class TraceCoflow {
    private final long id;
    private final long arrivalMillis;
    private final List<Integer> mapperRacks;
    private final List<TraceReducer> reducers;

    public TraceCoflow(long id, long arrivalMillis, List<Integer> mapperRacks, List<TraceReducer> reducers) {
        if (id < 0) {
            throw new IllegalArgumentException("coflow id must be >= 0, got " + id);
        }
        if (arrivalMillis < 0) {
            throw new IllegalArgumentException("coflow " + id + ": arrival must be >= 0 ms, got " + arrivalMillis);
        }
        if (mapperRacks.isEmpty() || reducers.isEmpty()) {
            throw new IllegalArgumentException("coflow " + id + " needs at least one mapper and one reducer, got "
                    + mapperRacks.size() + " mappers and " + reducers.size() + " reducers");
        }
        for (Integer rack : mapperRacks) {
            if (rack == null || rack < 0) {
                throw new IllegalArgumentException("coflow " + id + ": mapper rack must be >= 0, got " + rack);
            }
        }
        for (TraceReducer r : reducers) {
            if (r == null) {
                throw new IllegalArgumentException("coflow " + id + ": null reducer");
            }
        }
        this.id = id;
        this.arrivalMillis = arrivalMillis;
        this.mapperRacks = Collections.unmodifiableList(new ArrayList<>(mapperRacks));
        this.reducers = Collections.unmodifiableList(new ArrayList<>(reducers));
    }

    public long id() {
        return id;
    }

    /** Arrival time as written in the trace, in milliseconds. */
    public long arrivalMillis() {
        return arrivalMillis;
    }

    /** Arrival time in seconds (the trace's milliseconds / 1000, not CoflowSim's 1024 ms seconds). */
    public double arrivalSeconds() {
        return arrivalMillis / 1000.0;
    }

    /** Mapper racks in file order. */
    public List<Integer> mapperRacks() {
        return mapperRacks;
    }

    /** Reducers in file order. */
    public List<TraceReducer> reducers() {
        return reducers;
    }

    /** Mappers × reducers: the number of flows in {@link TraceFlows.Sizing#EXACT} mode. */
    public long width() {
        return (long) mapperRacks.size() * reducers.size();
    }

    /** Total shuffle volume, in trace megabytes. */
    public double totalMegabytes() {
        double mb = 0;
        for (TraceReducer r : reducers) {
            mb += r.megabytes();
        }
        return mb;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TraceCoflow)) {
            return false;
        }
        TraceCoflow c = (TraceCoflow) o;
        return id == c.id && arrivalMillis == c.arrivalMillis && mapperRacks.equals(c.mapperRacks)
                && reducers.equals(c.reducers);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id) * 31 + Long.hashCode(arrivalMillis);
    }

    @Override
    public String toString() {
        return "TraceCoflow(" + id + ", arrival=" + arrivalMillis + " ms, mappers=" + mapperRacks
                + ", reducers=" + reducers + ")";
    }
}
