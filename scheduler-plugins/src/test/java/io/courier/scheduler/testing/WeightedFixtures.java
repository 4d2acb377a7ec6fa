package io.courier.scheduler.testing;

/** Weighted-coflow fixtures of SCHEDULERS.md §9-10 (seed 004); capacity 1 per port, sizes in units. */
public final class WeightedFixtures {
    private WeightedFixtures() {
    }

    /**
     * Lemma 2's worst case (T-IAOA-2, T-W2A-3): F1 = {A→X, 3, w 2} and F2 = {A→X, 5, w 1}, both at 0.
     * Flows are labelled F11 and F21.
     */
    public static Scenario lemma2() {
        return Scenario.unitCapacity()
                .hosts("A", "X")
                .coflow("F1", 0, 2).flow("A", "X", 3)
                .coflow("F2", 0, 1).flow("A", "X", 5)
                .build();
    }

    /**
     * Seed 004 Fig. 3 (T-W2A-1): senders L1, L2, L3, every flow to its own receiver.
     * C1 = {C11: L1 5, C12: L2 1, C13: L3 2}; C2 = {C21: L1 1, C22: L2 1}; both at 0.
     */
    public static Scenario fig3(double w1, double w2) {
        return Scenario.unitCapacity()
                .hosts("L1", "L2", "L3", "r1", "r2", "r3", "r4", "r5")
                .coflow("C1", 0, w1).flow("L1", "r1", 5).flow("L2", "r2", 1).flow("L3", "r3", 2)
                .coflow("C2", 0, w2).flow("L1", "r4", 1).flow("L2", "r5", 1)
                .build();
    }
}
