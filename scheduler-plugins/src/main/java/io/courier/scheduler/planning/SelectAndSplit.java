package io.courier.scheduler.planning;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Courier's SelectAndSplit (seed 000 Alg. 3, SCHEDULERS.md §11): start at most {@code maxNum} network
 * flows per node, the most important unified flows first; with quota left, split the most important
 * flow larger than {@code minSize} in two (multipath). Importance: rate then size (rate mode), rank then
 * size (order mode), size (no scheduler); remaining ties go to the earlier flow in the list.
 *
 * <p>Stops when no started flow is larger than {@code minSize} (the spec's termination fix). An
 * unlimited {@code maxNum} means one flow per node pair and no splitting, the spec's default.
 */
public final class SelectAndSplit {
    /** {@code maxNum} value meaning "no limit": every unified flow starts, none is split. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    private final int maxNum;
    private final double minSize;

    public SelectAndSplit(int maxNum, double minSize) {
        if (maxNum < 1) {
            throw new IllegalArgumentException("MaxNum must be >= 1, got " + maxNum);
        }
        if (!Double.isFinite(minSize) || minSize < 0) {
            throw new IllegalArgumentException("MinSize must be finite and >= 0, got " + minSize);
        }
        this.maxNum = maxNum;
        this.minSize = minSize;
    }

    public int maxNum() {
        return maxNum;
    }

    public double minSize() {
        return minSize;
    }

    /** The network flows to start, in the order they were chosen (a split flow's halves stay in its place). */
    public List<UnifiedFlow> apply(List<UnifiedFlow> unified) {
        List<UnifiedFlow> candidates = new ArrayList<>(unified);
        List<UnifiedFlow> act = new ArrayList<>();
        if (maxNum == UNLIMITED) {
            act.addAll(candidates);
            return act;
        }
        while (act.size() < maxNum) {
            if (!candidates.isEmpty()) {
                int best = mostImportant(candidates, false);
                act.add(candidates.remove(best));
            } else {
                int best = mostImportant(act, true);
                if (best < 0) {
                    break;
                }
                UnifiedFlow half = act.get(best).half();
                act.set(best, half);
                act.add(best + 1, half);
            }
        }
        return act;
    }

    /** Index of the most important flow (first on ties); with {@code splittable}, only flows above MinSize. */
    private int mostImportant(List<UnifiedFlow> flows, boolean splittable) {
        int best = -1;
        for (int i = 0; i < flows.size(); i++) {
            UnifiedFlow f = flows.get(i);
            if (splittable && !(f.size() > minSize)) {
                continue;
            }
            if (best < 0 || IMPORTANCE.compare(f, flows.get(best)) > 0) {
                best = i;
            }
        }
        return best;
    }

    /** Greater = more important. */
    private static final Comparator<UnifiedFlow> IMPORTANCE = (a, b) -> {
        int c;
        switch (a.mode()) {
            case RATE:
                c = Double.compare(a.rate(), b.rate());
                break;
            case ORDER:
                c = Integer.compare(b.rank(), a.rank());
                break;
            default:
                c = 0;
        }
        return c != 0 ? c : Double.compare(a.size(), b.size());
    };
}
