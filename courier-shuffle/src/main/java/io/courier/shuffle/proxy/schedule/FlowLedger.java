package io.courier.shuffle.proxy.schedule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Cumulative per (job, peer) accounting of what this node serves, kept until the job ends on this node
 * ({@link #forgetJob}). The {@link SendScheduler} feeds it from the connections' event loops; the coordinator
 * client's reports and the decentralized fallback read {@link #snapshot()} from their own threads. Unlike the
 * scheduler's pending sizes it survives a pair going idle, because reports and Stream's priorities need the bytes
 * already sent. Thread-safe (one monitor; no call out while holding it).
 *
 * <p>{@link #version()} counts the changes of the rows, so a reader that polls (the fallback's epoch) can tell
 * "nothing changed since I last looked" without copying every row.
 */
public final class FlowLedger {
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private final Map<String, Boolean> jobs = new LinkedHashMap<>();
    private volatile Consumer<String> onNewJob = job -> { };
    /** Bumped (under the monitor) by every change of a row's content or of the set of rows. */
    private long version;

    /** Called (on the event loop of the connection that served it) when a job's first stream here starts. */
    public void onNewJob(Consumer<String> listener) {
        this.onNewJob = listener == null ? job -> { } : listener;
    }

    /** @param flowKey {@link SendPlan#key} of the job and peer (the scheduler has it at hand) */
    void started(String job, String peer, String flowKey, long bytes) {
        boolean first;
        synchronized (this) {
            row(job, peer, flowKey).started(bytes);
            version++;
            first = jobs.put(job, Boolean.TRUE) == null;
        }
        if (first) {
            onNewJob.accept(job);
        }
    }

    /** @param flowKey {@link SendPlan#key} of the job and peer */
    synchronized void sent(String flowKey, long bytes) {
        Row r = rows.get(flowKey);
        if (r != null && bytes != 0) {
            r.sent += bytes;
            version++;
        }
    }

    /** @param flowKey {@link SendPlan#key} of the job and peer */
    synchronized void ended(String flowKey, long unsentBytes) {
        Row r = rows.get(flowKey);
        if (r != null) {
            r.ended++;
            r.abandoned += Math.max(0, unsentBytes);
            version++;
        }
    }

    /** Drops every row of {@code job} (it ended on this node). Any thread. */
    public synchronized void forgetJob(String job) {
        jobs.remove(job);
        if (rows.values().removeIf(r -> r.job.equals(job))) {
            version++;
        }
    }

    /**
     * How many times the rows changed so far: equal values mean equal {@link #snapshot()}s. A poller reads it
     * before its snapshot, so a change racing with the snapshot shows as a newer version next time. Any thread.
     */
    public synchronized long version() {
        return version;
    }

    /** The jobs served here since they started (in order of their first stream). */
    public synchronized List<String> jobs() {
        return new ArrayList<>(jobs.keySet());
    }

    /** Every row, in order of first appearance. */
    public synchronized List<FlowTally> snapshot() {
        List<FlowTally> out = new ArrayList<>(rows.size());
        for (Row r : rows.values()) {
            out.add(new FlowTally(r.job, r.peer, r.requested, r.sent, r.abandoned, r.started, r.ended));
        }
        return out;
    }

    private Row row(String job, String peer, String flowKey) {
        Row r = rows.get(flowKey);
        if (r == null) {
            r = new Row(job, peer);
            rows.put(flowKey, r);
        }
        return r;
    }

    private static final class Row {
        final String job;
        final String peer;
        long requested;
        long sent;
        long abandoned;
        int started;
        int ended;

        Row(String job, String peer) {
            this.job = job;
            this.peer = peer;
        }

        void started(long bytes) {
            requested += bytes;
            started++;
        }
    }
}
