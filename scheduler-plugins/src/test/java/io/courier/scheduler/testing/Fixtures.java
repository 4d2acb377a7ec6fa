package io.courier.scheduler.testing;

/** The fixtures of SCHEDULERS.md §14 (capacity 1 per port; times and sizes in units). */
public final class Fixtures {
    private Fixtures() {
    }

    /** Fai Fig. 1: egress ports P1..P3 are contended; every flow has its own sender. */
    public static Scenario fai1() {
        return Scenario.unitCapacity()
                .hosts("s1", "s2", "s3", "s4", "s5", "s6", "P1", "P2", "P3")
                .coflow("C1", 2).flow("C1F1", "s1", "P1", 2).flow("C1F2", "s3", "P2", 2)
                .coflow("C2", 2).flow("C2F1", "s4", "P2", 3).flow("C2F2", "s5", "P3", 2)
                .coflow("C3", 0).flow("C3F1", "s2", "P1", 3).flow("C3F2", "s6", "P3", 3)
                .build();
    }

    public static Scenario v1() {
        return Scenario.unitCapacity()
                .coflow("A", 0).flow("s1", "r1", 2).flow("s2", "r1", 2)
                .coflow("B", 0).flow("s1", "r2", 1)
                .build();
    }

    public static Scenario v2() {
        return Scenario.unitCapacity()
                .coflow("A", 0).flow("s1", "r1", 4).flow("s2", "r2", 1)
                .coflow("B", 0).flow("s3", "r2", 2)
                .build();
    }

    public static Scenario v3() {
        return Scenario.unitCapacity()
                .coflow("A", 0).flow("s1", "r1", 4)
                .coflow("B", 1).flow("s1", "r2", 1)
                .coflow("C", 1).flow("s2", "r1", 1)
                .build();
    }

    /** Sincronia's three-coflow example on ports i1, i2 (up) and o1, o2 (down). */
    public static Scenario s3() {
        return s3(1, 1, 1);
    }

    public static Scenario s3(double w1, double w2, double w3) {
        return Scenario.unitCapacity()
                .hosts("i1", "i2", "o1", "o2")
                .coflow("C1", 0, w1).flow("i1", "o1", 3)
                .coflow("C2", 0, w2).flow("i1", "o2", 1).flow("i2", "o1", 1)
                .coflow("C3", 0, w3).flow("i2", "o2", 2)
                .build();
    }
}
