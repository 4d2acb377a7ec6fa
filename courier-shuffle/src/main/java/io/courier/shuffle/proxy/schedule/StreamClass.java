package io.courier.shuffle.proxy.schedule;

/**
 * How the sender treats the streams of one (job, peer): strict priority by {@code rank} (smaller first),
 * and within a rank, bytes in proportion to {@code weight}, which the streams of the class share equally.
 * A weight of 0 pauses the class.
 */
public final class StreamClass {
    /** Streams that no decision covers: served after every scheduled class, fair among jobs. */
    public static final StreamClass BACKGROUND = new StreamClass(Integer.MAX_VALUE, 1.0);

    private final int rank;
    private final double weight;

    public StreamClass(int rank, double weight) {
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("stream class weight must be finite and >= 0, got " + weight);
        }
        this.rank = rank;
        this.weight = weight;
    }

    public int rank() {
        return rank;
    }

    public double weight() {
        return weight;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StreamClass && ((StreamClass) o).rank == rank
                && Double.compare(((StreamClass) o).weight, weight) == 0;
    }

    @Override
    public int hashCode() {
        return rank * 31 + Double.hashCode(weight);
    }

    @Override
    public String toString() {
        return "StreamClass(rank=" + rank + ", weight=" + weight + ")";
    }
}
