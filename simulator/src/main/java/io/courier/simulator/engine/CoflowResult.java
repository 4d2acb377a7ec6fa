package io.courier.simulator.engine;

/** How one coflow fared in a simulation: its arrival, finish and CCT (s), and its shape. Immutable. */
public final class CoflowResult {
    private final long id;
    private final double arrival;
    private final double finish;
    private final double weight;
    private final double bytes;
    private final int width;
    private final double largestFlowBytes;

    public CoflowResult(long id, double arrival, double finish, double weight, double bytes, int width,
            double largestFlowBytes) {
        this.id = id;
        this.arrival = arrival;
        this.finish = finish;
        this.weight = weight;
        this.bytes = bytes;
        this.width = width;
        this.largestFlowBytes = largestFlowBytes;
    }

    public long id() {
        return id;
    }

    public double arrival() {
        return arrival;
    }

    public double finish() {
        return finish;
    }

    /** Coflow completion time: finish − arrival, seconds. */
    public double cct() {
        return finish - arrival;
    }

    public double weight() {
        return weight;
    }

    public double bytes() {
        return bytes;
    }

    /** Number of flows. */
    public int width() {
        return width;
    }

    public double largestFlowBytes() {
        return largestFlowBytes;
    }

    @Override
    public String toString() {
        return "coflow " + id + " cct=" + cct();
    }
}
