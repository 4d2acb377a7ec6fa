package io.courier.scheduler.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.testing.Fixtures;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;
import org.junit.jupiter.api.Test;

/**
 * P6 BSSI (SCHEDULERS.md §0.5) on the spec's traces. Loads are remaining bytes per port, ports ordered
 * up(h0..), down(h0..); coflows are indexed in (arrival, id) order, which in these fixtures is C1, C2, C3.
 */
class BssiTest {

    /** {@code L_C(p)}: remaining bytes of each coflow's unfinished flows on each host port. */
    static double[][] loads(ClusterState s) {
        Network n = s.network();
        double[][] load = new double[s.coflowCount()][2 * n.hostCount()];
        for (int c = 0; c < s.coflowCount(); c++) {
            for (int f : s.unfinishedFlowsOf(c)) {
                Flow fl = s.flow(f);
                load[c][n.up(fl.src())] += fl.remaining();
                load[c][n.down(fl.dst())] += fl.remaining();
            }
        }
        return load;
    }

    static double[] weights(ClusterState s) {
        double[] w = new double[s.coflowCount()];
        for (int c = 0; c < w.length; c++) {
            w[c] = s.coflow(c).weight();
        }
        return w;
    }

    /**
     * T-SINC-1 (S3, unit weights): k = 2 bottleneck i1 (tie with o1, up first), C1 = 1/3 goes last;
     * k = 1 bottleneck i2, C3 (0.5) beats C2 (0.667); order C2, C3, C1.
     */
    @Test
    void tSinc1UnitWeights() {
        ClusterState s = Snapshot.of(Fixtures.s3()).build();
        assertArrayEquals(new int[] {1, 2, 0}, Bssi.order(loads(s), weights(s)));
    }

    /** T-SINC-2 (weights 4, 1, 1): C2 goes last (1 < 4/3), then C1 (1/3 < ∞); order C3, C1, C2. */
    @Test
    void tSinc2Weighted() {
        ClusterState s = Snapshot.of(Fixtures.s3(4, 1, 1)).build();
        assertArrayEquals(new int[] {2, 0, 1}, Bssi.order(loads(s), weights(s)));
    }

    /**
     * T-W2A-1 (seed 004 Fig. 3): senders L1..L3, every flow to its own receiver; C1 = {5 on L1, 1 on L2, 2 on
     * L3}, C2 = {1 on L1, 1 on L2}. Weights (2, 1): order C2, C1. Weights (6, 1): order C1, C2.
     */
    @Test
    void tW2a1Figure3() {
        assertArrayEquals(new int[] {1, 0}, Bssi.order(loads(fig3(2, 1)), weights(fig3(2, 1))));
        assertArrayEquals(new int[] {0, 1}, Bssi.order(loads(fig3(6, 1)), weights(fig3(6, 1))));
    }

    private static ClusterState fig3(double w1, double w2) {
        return Snapshot.of(Scenario.unitCapacity().hosts("L1", "L2", "L3")
                .coflow("C1", 0, w1).flow("L1", "R1", 5).flow("L2", "R2", 1).flow("L3", "R3", 2)
                .coflow("C2", 0, w2).flow("L1", "R4", 1).flow("L2", "R5", 1)
                .build()).build();
    }

    /** Select ties [resolved]: among equal keys the later coflow (larger index) goes last. */
    @Test
    void selectTiesPutTheLaterCoflowLast() {
        double[][] same = {{1, 0, 1, 0}, {1, 0, 1, 0}};
        assertArrayEquals(new int[] {0, 1}, Bssi.order(same, new double[] {1, 1}));
        double[][] three = {{2, 0, 0, 2}, {2, 0, 0, 2}, {2, 0, 0, 2}};
        assertArrayEquals(new int[] {0, 1, 2}, Bssi.order(three, new double[] {1, 1, 1}));
    }

    @Test
    void emptyAndSingle() {
        assertArrayEquals(new int[0], Bssi.order(new double[0][], new double[0]));
        assertArrayEquals(new int[] {0}, Bssi.order(new double[][] {{3, 0}}, new double[] {2}));
    }

    /**
     * {@link Bssi#order} visits only the coflows loaded at each step's bottleneck; it must give exactly the order of
     * the spec's plain loop over every unplaced coflow ({@link #orderByScanningAll}), on random sparse loads with
     * many exact ties (small integer loads and weights), coflows with no load at all, and all-zero matrices.
     */
    @Test
    void sparseStepsGiveTheOrderOfAScanOverAllCoflows() {
        java.util.Random rnd = new java.util.Random(5);
        for (int trial = 0; trial < 2000; trial++) {
            int n = 1 + rnd.nextInt(30);
            int ports = 2 + rnd.nextInt(10);
            double[][] load = new double[n][ports];
            double[] weight = new double[n];
            int density = rnd.nextInt(4);
            for (int c = 0; c < n; c++) {
                weight[c] = 1 + rnd.nextInt(5);
                for (int p = 0; p < ports; p++) {
                    if (density > 0 && rnd.nextInt(4) < density) {
                        load[c][p] = trial % 2 == 0 ? 1 + rnd.nextInt(4) : rnd.nextDouble() * 100;
                    }
                }
            }
            assertArrayEquals(orderByScanningAll(load, weight), Bssi.order(load, weight), "trial " + trial);
        }
    }

    /** P6 as SCHEDULERS.md §0.5 writes it: every step scans every unplaced coflow and every port. */
    private static int[] orderByScanningAll(double[][] load, double[] weight) {
        int n = load.length;
        int ports = load[0].length;
        int[] sigma = new int[n];
        double[] wbar = weight.clone();
        double[] total = new double[ports];
        for (double[] l : load) {
            for (int p = 0; p < ports; p++) {
                total[p] += l[p];
            }
        }
        boolean[] placed = new boolean[n];
        for (int k = n - 1; k >= 0; k--) {
            int b = 0;
            for (int p = 1; p < ports; p++) {
                if (total[p] > total[b]) {
                    b = p;
                }
            }
            int sel = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int c = 0; c < n; c++) {
                if (placed[c]) {
                    continue;
                }
                double key = load[c][b] > 0 ? wbar[c] / load[c][b] : Double.POSITIVE_INFINITY;
                boolean tie = key == best || !Double.isInfinite(key) && !Double.isInfinite(best)
                        && Math.abs(key - best) <= 1e-12 * Math.max(1.0, Math.max(Math.abs(key), Math.abs(best)));
                if (sel < 0 || tie || key < best) {
                    sel = c;
                    best = tie ? best : key;
                }
            }
            sigma[k] = sel;
            placed[sel] = true;
            double theta = load[sel][b] > 0 ? wbar[sel] / load[sel][b] : 0.0;
            for (int c = 0; c < n; c++) {
                if (!placed[c]) {
                    wbar[c] -= theta * load[c][b];
                }
            }
            for (int p = 0; p < ports; p++) {
                total[p] -= load[sel][p];
            }
        }
        return sigma;
    }
}
