package io.courier.scheduler.model;

/**
 * When the state builders share one resource array per (source, destination) host pair among pathless flows
 * (most flows repeat a pair at trace scale), and when they give each flow its own: a dense table of
 * hosts² slots pays off only while it is not much larger than the flows it serves. A coordinator with 1,000
 * nodes and a few thousand flows would otherwise allocate and zero a table of a million slots (4–8 MB) at every
 * decision. Which arrays are shared never changes their contents, so the states are the same either way.
 */
final class PairTable {
    /** Largest dense table (150 hosts: 22 500 slots; 1 024 hosts: 1 048 576). */
    private static final long MAX_PAIRS = 1L << 20;
    /** Small tables are always worth it, whatever the number of flows. */
    private static final long ALWAYS_PAIRS = 1L << 14;
    /** Otherwise at most this many slots per flow. */
    private static final long PAIRS_PER_FLOW = 4;

    private PairTable() {
    }

    /** A table for {@code hosts} hosts, or null when each flow should get its own array. */
    static int[][] forState(int hosts, int flows) {
        long pairs = (long) hosts * hosts;
        if (pairs > MAX_PAIRS || (pairs > ALWAYS_PAIRS && pairs > PAIRS_PER_FLOW * flows)) {
            return null;
        }
        return new int[(int) pairs][];
    }
}
