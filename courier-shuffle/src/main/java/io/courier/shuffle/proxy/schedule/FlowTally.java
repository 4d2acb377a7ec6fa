package io.courier.shuffle.proxy.schedule;

/**
 * What this node has served of one (job, peer) pair since the job's first stream here: bytes asked for by the
 * streams started ({@code requested}, the sizes known so far), bytes sent, bytes of streams that ended unsent
 * (cancelled or failed), and streams started/ended. Immutable snapshot of a {@link FlowLedger} row.
 */
public final class FlowTally {
    private final String job;
    private final String peer;
    private final long requested;
    private final long sent;
    private final long abandoned;
    private final int streamsStarted;
    private final int streamsEnded;

    public FlowTally(String job, String peer, long requested, long sent, long abandoned, int streamsStarted,
            int streamsEnded) {
        this.job = job;
        this.peer = peer;
        this.requested = requested;
        this.sent = sent;
        this.abandoned = abandoned;
        this.streamsStarted = streamsStarted;
        this.streamsEnded = streamsEnded;
    }

    public String job() {
        return job;
    }

    /** The fetching proxy's node id ({@code host:port}). */
    public String peer() {
        return peer;
    }

    /** Sum of the lengths of the segments requested so far (the flow's size as far as it is known). */
    public long requested() {
        return requested;
    }

    public long sent() {
        return sent;
    }

    /** Bytes of segments that ended without being sent (cancelled by the fetcher, or failed). */
    public long abandoned() {
        return abandoned;
    }

    /** Bytes of the open streams still to send. */
    public long pending() {
        return Math.max(0, requested - sent - abandoned);
    }

    public int streamsStarted() {
        return streamsStarted;
    }

    public int streamsEnded() {
        return streamsEnded;
    }

    /** No stream of the pair is open now. */
    public boolean idle() {
        return streamsEnded >= streamsStarted;
    }

    @Override
    public String toString() {
        return "FlowTally(" + job + "->" + peer + " requested=" + requested + " sent=" + sent + " abandoned="
                + abandoned + " streams=" + streamsEnded + "/" + streamsStarted + ")";
    }
}
