package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.schedule.ReceivePlan;
import io.courier.shuffle.proxy.schedule.StreamClass;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The fetches of one connection that wait for buffer (a stream window reserved against the connection and node
 * budgets), and the order in which they get it: by the current {@link ReceivePlan} — the smallest rank first;
 * inside a rank the job whose admitted bytes, counting the next window, are smallest relative to its weight
 * (weighted fair sharing of the buffer, like a virtual finish time); FIFO inside a job and among ties. A job with
 * weight 0 goes only when no job of its rank with a positive weight waits. Confined to the connection's event
 * loop; the plan is read at every choice, so a new plan takes effect at the next admission without reordering.
 */
final class AdmissionQueue {
    private final Map<String, ArrayDeque<Waiting>> byJob = new LinkedHashMap<>();
    /** Window bytes admitted and not yet released, per job, on this connection. */
    private final Map<String, Long> admitted = new HashMap<>();
    private long nextSeq;
    private int size;

    private static final class Waiting {
        final ClientStream stream;
        final long seq;

        Waiting(ClientStream stream, long seq) {
            this.stream = stream;
            this.seq = seq;
        }
    }

    void add(ClientStream s) {
        ArrayDeque<Waiting> q = byJob.get(s.job());
        if (q == null) {
            q = new ArrayDeque<>();
            byJob.put(s.job(), q);
        }
        q.add(new Waiting(s, nextSeq++));
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Removes {@code s} if it waits (a consumer gave up before admission). */
    boolean remove(ClientStream s) {
        ArrayDeque<Waiting> q = byJob.get(s.job());
        if (q == null) {
            return false;
        }
        for (Iterator<Waiting> it = q.iterator(); it.hasNext();) {
            if (it.next().stream == s) {
                it.remove();
                size--;
                if (q.isEmpty()) {
                    byJob.remove(s.job());
                }
                return true;
            }
        }
        return false;
    }

    /**
     * The fetch to admit next under {@code plan} ({@code peer}: the serving proxy of this connection), or null.
     * {@code creditOf} gives the window a stream would reserve.
     */
    ClientStream peek(ReceivePlan plan, String peer, ToLongFunction<ClientStream> creditOf) {
        Waiting best = null;
        StreamClass bestClass = null;
        double bestKey = 0;
        for (Map.Entry<String, ArrayDeque<Waiting>> e : byJob.entrySet()) {
            Waiting head = e.getValue().peek();
            StreamClass c = plan.classOf(e.getKey(), peer);
            double key = finishKey(e.getKey(), c, creditOf.applyAsLong(head.stream));
            if (best == null || better(c, key, head.seq, bestClass, bestKey, best.seq)) {
                best = head;
                bestClass = c;
                bestKey = key;
            }
        }
        return best == null ? null : best.stream;
    }

    /** Takes {@code s}, which {@link #peek} returned, out of the queue. */
    void poll(ClientStream s) {
        ArrayDeque<Waiting> q = byJob.get(s.job());
        if (q == null || q.peek() == null || q.peek().stream != s) {
            throw new IllegalStateException(s + " is not at the head of its job's admission queue");
        }
        q.poll();
        size--;
        if (q.isEmpty()) {
            byJob.remove(s.job());
        }
    }

    /** {@code bytes} of window were reserved for a stream of {@code job}. */
    void admitted(String job, long bytes) {
        admitted.merge(job, bytes, Long::sum);
    }

    /** A stream of {@code job} returned its {@code bytes} of window. */
    void released(String job, long bytes) {
        Long v = admitted.get(job);
        if (v == null) {
            return;
        }
        if (v - bytes <= 0) {
            admitted.remove(job);
        } else {
            admitted.put(job, v - bytes);
        }
    }

    /** Window bytes currently admitted for {@code job} on this connection. */
    long admittedBytes(String job) {
        Long v = admitted.get(job);
        return v == null ? 0 : v;
    }

    /** Empties the queue (the connection failed), in arrival order. */
    List<ClientStream> drain() {
        List<Waiting> all = new ArrayList<>();
        for (ArrayDeque<Waiting> q : byJob.values()) {
            all.addAll(q);
        }
        all.sort((a, b) -> Long.compare(a.seq, b.seq));
        List<ClientStream> out = new ArrayList<>(all.size());
        for (Waiting w : all) {
            out.add(w.stream);
        }
        byJob.clear();
        size = 0;
        return out;
    }

    /**
     * The job's admitted bytes after admitting {@code nextCredit} more, relative to its weight; a zero weight sorts
     * after every positive one (infinite).
     */
    private double finishKey(String job, StreamClass c, long nextCredit) {
        double bytes = admittedBytes(job) + (double) nextCredit;
        return c.weight() > 0 ? bytes / c.weight() : Double.POSITIVE_INFINITY;
    }

    private static boolean better(StreamClass c, double key, long seq, StreamClass bestClass, double bestKey,
            long bestSeq) {
        if (c.rank() != bestClass.rank()) {
            return c.rank() < bestClass.rank();
        }
        int k = Double.compare(key, bestKey);
        if (k != 0) {
            return k < 0;
        }
        return seq < bestSeq;
    }
}
