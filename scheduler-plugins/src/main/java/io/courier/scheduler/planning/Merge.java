package io.courier.scheduler.planning;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Courier's Merge (seed 000 Alg. 2, SCHEDULERS.md §11): the scheduled flows of one node pair become one
 * unified flow. Rate mode: sizes and rates add. Order mode: the best (smallest) rank wins and flows of
 * equal rank add sizes; the others are held back. No scheduler: sizes add. The result does not depend
 * on the input order (pairs appear in order of first appearance).
 */
public final class Merge {
    private Merge() {
    }

    public static List<UnifiedFlow> merge(List<PlannedFlow> scheduled, PlanningMode mode) {
        Map<NodePair, List<PlannedFlow>> byPair = new LinkedHashMap<>();
        for (PlannedFlow f : scheduled) {
            if (mode == PlanningMode.ORDER && f.rank() == PlannedFlow.NO_RANK) {
                throw new IllegalArgumentException(f.id() + " (" + f.pair() + ") has no rank but the mode is ORDER");
            }
            byPair.computeIfAbsent(f.pair(), p -> new ArrayList<>()).add(f);
        }
        List<UnifiedFlow> out = new ArrayList<>(byPair.size());
        for (Map.Entry<NodePair, List<PlannedFlow>> e : byPair.entrySet()) {
            out.add(mergePair(e.getKey(), e.getValue(), mode));
        }
        return out;
    }

    private static UnifiedFlow mergePair(NodePair pair, List<PlannedFlow> flows, PlanningMode mode) {
        int best = Integer.MAX_VALUE;
        if (mode == PlanningMode.ORDER) {
            for (PlannedFlow f : flows) {
                best = Math.min(best, f.rank());
            }
        }
        List<PlannedFlow> carried = new ArrayList<>();
        List<PlannedFlow> held = new ArrayList<>();
        double size = 0;
        double rate = 0;
        for (PlannedFlow f : flows) {
            if (mode == PlanningMode.ORDER && f.rank() != best) {
                held.add(f);
                continue;
            }
            carried.add(f);
            size += f.size();
            rate += f.rate();
        }
        return new UnifiedFlow(mode, pair, size, mode == PlanningMode.RATE ? rate : 0.0,
                mode == PlanningMode.ORDER ? best : PlannedFlow.NO_RANK, carried, held);
    }
}
