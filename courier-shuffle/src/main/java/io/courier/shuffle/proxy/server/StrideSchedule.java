package io.courier.shuffle.proxy.server;

import io.courier.shuffle.proxy.protocol.Wire;
import io.courier.shuffle.proxy.schedule.StreamClass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The order in which one connection's streams send their blocks: strict priority by rank (smaller first) and,
 * within a rank, stride scheduling — each stream has a pass (bytes sent / weight) and the eligible stream with
 * the smallest pass goes next (first opened on ties). Each rank has a virtual clock, the largest start pass of a
 * block sent in it: a stream that joins, changes rank, or comes back from weight 0 starts at that clock.
 *
 * <p>Weights move under a rate-based scheduler at every decision (Varys: remaining / Γ, several times a second).
 * A stream whose weight changes keeps its lead over the clock in bytes, re-expressed at the new weight; restarting
 * it at the clock handed every next block to the first stream of the connection. Re-expressing a lead is only
 * fair against a clock that never goes back: a clock set to the pass of whatever stream went last (a stream
 * catching up after waiting for credit, behind it) moved back and forth, and each rescale around it added or
 * removed bytes of lead; under moving weights those errors piled up into streams owed hundreds of blocks
 * (docs/benchmarks.md, "The send order under moving rates, and a stale pacing timer").
 *
 * <p>Not thread-safe: owned by one {@link ConnectionSender}, confined to its channel's event loop.
 */
final class StrideSchedule {
    /** The streams in opening order, scanned once per block: an array list, no iterator or hash lookups. */
    private final ArrayList<OutboundStream> order = new ArrayList<>();
    /**
     * Per rank, the largest start pass of a block sent in it. Mutable holders: a block that moves a clock (nearly
     * every block) updates one in place instead of boxing a new Double into the map.
     */
    private final Map<Integer, Clock> clocks = new HashMap<>();

    /** Adds a stream whose class and weight are already set: it starts at its rank's clock. */
    void add(OutboundStream s) {
        order.add(s);
        s.pass = clock(s.streamClass.rank());
    }

    void remove(OutboundStream s) {
        order.remove(s);
    }

    void clear() {
        order.clear();
    }

    /** Gives {@code s} a new class and share of its class weight (a re-plan). */
    void reclassify(OutboundStream s, StreamClass c, double weight) {
        if (c.rank() != s.streamClass.rank()) {
            s.pass = clock(c.rank());
        } else if (Double.compare(weight, s.weight) != 0) {
            s.pass = passAtNewWeight(s.pass, clock(c.rank()), s.weight, weight);
        }
        s.streamClass = c;
        s.weight = weight;
    }

    /**
     * {@code s} got credit after waiting for it: it may catch up at most one block on the bytes it could not send
     * (like a flow re-entering a fair queue), so a short credit round trip costs it no share.
     */
    void resumed(OutboundStream s) {
        double lag = Wire.MAX_DATA / Math.max(s.weight, 1e-9);
        s.pass = Math.max(s.pass, clock(s.streamClass.rank()) - lag);
    }

    /** The eligible stream of the best rank with the smallest pass (first opened on ties); null if none. */
    OutboundStream pick() {
        OutboundStream best = null;
        for (int i = 0, n = order.size(); i < n; i++) {
            OutboundStream s = order.get(i);
            if (!s.eligible()) {
                continue;
            }
            if (best == null || s.streamClass.rank() < best.streamClass.rank()
                    || (s.streamClass.rank() == best.streamClass.rank() && s.pass < best.pass)) {
                best = s;
            }
        }
        return best;
    }

    /** {@code s}, just picked, sent a block of {@code bytes}. */
    void sent(OutboundStream s, int bytes) {
        Clock c = clocks.computeIfAbsent(s.streamClass.rank(), r -> new Clock());
        c.pass = Math.max(c.pass, s.pass);
        s.pass += bytes / s.weight;
    }

    double clock(int rank) {
        Clock c = clocks.get(rank);
        return c == null ? 0.0 : c.pass;
    }

    /**
     * A stream's pass when its weight changes inside its rank: its lead over the rank's clock (or its lag behind
     * it, catching up) is bytes counted at the old weight, re-expressed at the new one. Without a positive old and
     * new weight and a finite pass the stream starts at the clock (a weight-0 stream is not eligible and sends
     * nothing, so it has no lead to keep).
     */
    static double passAtNewWeight(double pass, double clock, double oldWeight, double newWeight) {
        if (!(oldWeight > 0) || !(newWeight > 0) || Double.isInfinite(pass) || Double.isNaN(pass)) {
            return clock;
        }
        return clock + (pass - clock) * (oldWeight / newWeight);
    }

    /** A rank's clock (starts at 0, as a rank no block was sent in). */
    private static final class Clock {
        double pass;
    }
}
