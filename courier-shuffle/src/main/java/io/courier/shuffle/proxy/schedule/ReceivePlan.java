package io.courier.shuffle.proxy.schedule;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The receiving node's share of the schedule: a {@link StreamClass} per (job, serving peer) for the flows this
 * node fetches. The fetching side admits waiting fetches, and so hands out its bounded receive buffer (stream
 * windows reserved against the connection and node budgets), by it: strict priority by {@code rank}, and inside
 * a rank each job's admitted bytes in proportion to its {@code weight} (its flows' rates). Without a decision
 * ({@link #NONE}) every job is {@link StreamClass#BACKGROUND}: the buffer is shared equally among jobs. This is the
 * receiver's half of DESIGN.md's enforcement — the sender paces and orders the blocks, the receiver makes sure the
 * buffer that credit comes from goes to the flows the schedule prefers. Immutable.
 */
public final class ReceivePlan {
    /** No decision: every job alike. */
    public static final ReceivePlan NONE = new ReceivePlan(Collections.<String, StreamClass>emptyMap());

    private final Map<String, StreamClass> classes;

    private ReceivePlan(Map<String, StreamClass> classes) {
        this.classes = Collections.unmodifiableMap(new HashMap<>(classes));
    }

    /** A plan builder; a (job, peer) left out is {@link StreamClass#BACKGROUND} (after every class given). */
    public static Builder builder() {
        return new Builder();
    }

    /** How fetches of {@code job} from the proxy {@code peer} are treated. */
    public StreamClass classOf(String job, String peer) {
        StreamClass c = classes.get(SendPlan.key(job, peer));
        return c == null ? StreamClass.BACKGROUND : c;
    }

    /** Whether no (job, peer) has a class of its own. */
    public boolean isEmpty() {
        return classes.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReceivePlan && ((ReceivePlan) o).classes.equals(classes);
    }

    @Override
    public int hashCode() {
        return classes.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("ReceivePlan(");
        for (Map.Entry<String, StreamClass> e : classes.entrySet()) {
            b.append(e.getKey().replace('\u0000', '<')).append('=').append(e.getValue()).append(' ');
        }
        return b.append(')').toString();
    }

    /** Collects classes; not thread-safe. */
    public static final class Builder {
        private final Map<String, StreamClass> classes = new HashMap<>();

        private Builder() {
        }

        /** Strict priority: fetches of a smaller {@code rank} are admitted first (order-based schedules). */
        public Builder rank(String job, String peer, int rank) {
            return put(job, peer, new StreamClass(rank, 1.0));
        }

        /**
         * Buffer in proportion to {@code rate} (bytes/s of the flow, rate-based schedules); all rated flows share
         * one rank, ahead of unscheduled ones. A rate of 0 admits the job only when no rated job waits.
         */
        public Builder rate(String job, String peer, double rate) {
            return put(job, peer, new StreamClass(0, rate));
        }

        public Builder put(String job, String peer, StreamClass c) {
            if (job == null || peer == null || c == null) {
                throw new IllegalArgumentException("receive plan entry needs job, peer and class, got " + job
                        + ", " + peer + ", " + c);
            }
            classes.put(SendPlan.key(job, peer), c);
            return this;
        }

        public ReceivePlan build() {
            return classes.isEmpty() ? NONE : new ReceivePlan(classes);
        }
    }
}
