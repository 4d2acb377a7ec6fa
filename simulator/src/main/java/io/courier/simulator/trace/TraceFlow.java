package io.courier.simulator.trace;

/** One flow of a trace coflow: bytes from a mapper's rack to a reducer's rack. Immutable. */
public final class TraceFlow {
    private final int mapperRack;
    private final int reducerRack;
    private final double bytes;

    public TraceFlow(int mapperRack, int reducerRack, double bytes) {
        if (mapperRack < 0 || reducerRack < 0) {
            throw new IllegalArgumentException("racks must be >= 0, got " + mapperRack + "->" + reducerRack);
        }
        if (!Double.isFinite(bytes) || bytes < 0) {
            throw new IllegalArgumentException("flow " + mapperRack + "->" + reducerRack
                    + ": bytes must be a finite number >= 0, got " + bytes);
        }
        this.mapperRack = mapperRack;
        this.reducerRack = reducerRack;
        this.bytes = bytes;
    }

    /** The source: up port of this rack. */
    public int mapperRack() {
        return mapperRack;
    }

    /** The destination: down port of this rack. */
    public int reducerRack() {
        return reducerRack;
    }

    public double bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TraceFlow)) {
            return false;
        }
        TraceFlow t = (TraceFlow) o;
        return mapperRack == t.mapperRack && reducerRack == t.reducerRack && Double.compare(bytes, t.bytes) == 0;
    }

    @Override
    public int hashCode() {
        return (mapperRack * 31 + reducerRack) * 31 + Double.hashCode(bytes);
    }

    @Override
    public String toString() {
        return mapperRack + "->" + reducerRack + ":" + bytes;
    }
}
