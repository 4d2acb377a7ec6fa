package io.courier.scheduler.planning;

import io.courier.scheduler.model.FlowId;

/**
 * One scheduled flow as the sending agent sees it (SCHEDULERS.md §11 input list L): its node pair, the
 * bytes pending at the sender, and the scheduler's rate (rate mode) or rank (order mode, 0 = most
 * important). Immutable.
 */
public final class PlannedFlow {
    /** Rank of a flow that has none (rate mode, or no scheduler). */
    public static final int NO_RANK = -1;

    private final FlowId id;
    private final NodePair pair;
    private final double size;
    private final double rate;
    private final int rank;

    private PlannedFlow(FlowId id, NodePair pair, double size, double rate, int rank) {
        if (id == null || pair == null) {
            throw new IllegalArgumentException("planned flow needs an id and a node pair");
        }
        if (!Double.isFinite(size) || size < 0) {
            throw new IllegalArgumentException(id + " (" + pair + "): pending size must be finite and >= 0, got " + size);
        }
        if (!Double.isFinite(rate) || rate < 0) {
            throw new IllegalArgumentException(id + " (" + pair + "): rate must be finite and >= 0, got " + rate);
        }
        if (rank < NO_RANK) {
            throw new IllegalArgumentException(id + " (" + pair + "): rank must be >= 0, got " + rank);
        }
        this.id = id;
        this.pair = pair;
        this.size = size;
        this.rate = rate;
        this.rank = rank;
    }

    public static PlannedFlow withRate(FlowId id, NodePair pair, double size, double rate) {
        return new PlannedFlow(id, pair, size, rate, NO_RANK);
    }

    public static PlannedFlow withRank(FlowId id, NodePair pair, double size, int rank) {
        if (rank < 0) {
            throw new IllegalArgumentException(id + " (" + pair + "): rank must be >= 0, got " + rank);
        }
        return new PlannedFlow(id, pair, size, 0.0, rank);
    }

    public static PlannedFlow unscheduled(FlowId id, NodePair pair, double size) {
        return new PlannedFlow(id, pair, size, 0.0, NO_RANK);
    }

    public FlowId id() {
        return id;
    }

    public NodePair pair() {
        return pair;
    }

    public double size() {
        return size;
    }

    public double rate() {
        return rate;
    }

    public int rank() {
        return rank;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PlannedFlow)) {
            return false;
        }
        PlannedFlow p = (PlannedFlow) o;
        return id.equals(p.id) && pair.equals(p.pair) && Double.compare(size, p.size) == 0
                && Double.compare(rate, p.rate) == 0 && rank == p.rank;
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return id + "(" + pair + ", size=" + size + (rank == NO_RANK ? ", rate=" + rate : ", rank=" + rank) + ")";
    }
}
