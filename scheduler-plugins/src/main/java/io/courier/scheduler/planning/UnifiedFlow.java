package io.courier.scheduler.planning;

import io.courier.scheduler.model.FlowId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flows of one node pair merged into one network flow (seed 000 Alg. 2), or one half of such a flow
 * after a split. Carries the constituents that share its bytes and, in order mode, those held back
 * because a more important flow of the same pair goes first. Immutable.
 */
public final class UnifiedFlow {
    private final PlanningMode mode;
    private final NodePair pair;
    private final double size;
    private final double rate;
    private final int rank;
    private final List<PlannedFlow> constituents;
    private final List<PlannedFlow> heldBack;

    UnifiedFlow(PlanningMode mode, NodePair pair, double size, double rate, int rank, List<PlannedFlow> constituents,
            List<PlannedFlow> heldBack) {
        this.mode = mode;
        this.pair = pair;
        this.size = size;
        this.rate = rate;
        this.rank = rank;
        this.constituents = Collections.unmodifiableList(new ArrayList<>(constituents));
        this.heldBack = Collections.unmodifiableList(new ArrayList<>(heldBack));
    }

    public PlanningMode mode() {
        return mode;
    }

    public NodePair pair() {
        return pair;
    }

    /** Bytes the unified flow carries this round (for a split half: its half). */
    public double size() {
        return size;
    }

    /** Unified rate (rate mode; 0 otherwise). */
    public double rate() {
        return rate;
    }

    /** Rank (order mode; {@link PlannedFlow#NO_RANK} otherwise). */
    public int rank() {
        return rank;
    }

    /** The scheduled flows whose bytes this flow carries. */
    public List<PlannedFlow> constituents() {
        return constituents;
    }

    /** Order mode: less important flows of the pair, not transmitted this round. */
    public List<PlannedFlow> heldBack() {
        return heldBack;
    }

    /** One of the two equal halves of a split (seed 000 Alg. 3 SplitFlow): half the size and, in rate mode, half the rate. */
    UnifiedFlow half() {
        return new UnifiedFlow(mode, pair, size / 2, rate / 2, rank, constituents, heldBack);
    }

    /**
     * How {@code bytes} delivered on this flow are divided among its constituents: in proportion to their
     * scheduled rates (rate mode; equally when all rates are 0), equally otherwise; a constituent never
     * gets more than its pending size, and what it cannot take goes to the others.
     */
    public Map<FlowId, Double> divide(double bytes) {
        if (!Double.isFinite(bytes) || bytes < 0) {
            throw new IllegalArgumentException(pair + ": bytes to divide must be finite and >= 0, got " + bytes);
        }
        int n = constituents.size();
        double[] weight = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            weight[i] = mode == PlanningMode.RATE ? constituents.get(i).rate() : 1.0;
            total += weight[i];
        }
        if (total <= 0) {
            for (int i = 0; i < n; i++) {
                weight[i] = 1.0;
            }
        }
        double[] share = new double[n];
        boolean[] full = new boolean[n];
        double left = bytes;
        // Water-fill: hand out in proportion to weight; a constituent that reaches its size drops out.
        while (left > 1e-12 * Math.max(1.0, bytes)) {
            double w = 0;
            for (int i = 0; i < n; i++) {
                if (!full[i]) {
                    w += weight[i];
                }
            }
            if (w <= 0) {
                break;
            }
            double scale = left / w;
            for (int i = 0; i < n; i++) {
                if (!full[i]) {
                    double room = constituents.get(i).size() - share[i];
                    scale = Math.min(scale, room / weight[i]);
                }
            }
            double given = 0;
            for (int i = 0; i < n; i++) {
                if (!full[i]) {
                    double add = scale * weight[i];
                    share[i] += add;
                    given += add;
                    if (constituents.get(i).size() - share[i] <= 1e-12 * Math.max(1.0, constituents.get(i).size())) {
                        full[i] = true;
                    }
                }
            }
            left -= given;
            if (given <= 0) {
                break;
            }
        }
        Map<FlowId, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(constituents.get(i).id(), share[i]);
        }
        return out;
    }

    @Override
    public String toString() {
        return pair + "(size=" + size + (mode == PlanningMode.RATE ? ", rate=" + rate : "")
                + (mode == PlanningMode.ORDER ? ", rank=" + rank : "") + ", flows=" + constituents.size() + ")";
    }
}
