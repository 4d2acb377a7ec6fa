package io.courier.scheduler.primitives;

/**
 * P6 of SCHEDULERS.md §0.5: Sincronia's Bottleneck–Select–Scale–Iterate ordering, identical to Alg. 1
 * of the weighted-coflow paper (seed 004). Works on a dense load matrix so the same code serves
 * Sincronia (residual loads, every trigger) and the weighted 2-approximation (total loads, once).
 */
public final class Bssi {
    private static final double TIE = 1e-12;

    private Bssi() {
    }

    private static boolean sameKey(double a, double b) {
        if (a == b) {
            return true;
        }
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            return false;
        }
        return Math.abs(a - b) <= TIE * Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
    }

    /**
     * Orders items (coflows) so that index 0 is the highest priority.
     *
     * @param load   {@code load[c][p]}: bytes of item {@code c} at port {@code p}; ports are ordered
     *               up(h0..) then down(h0..), which is also the bottleneck tie order (first port wins)
     * @param weight weight of each item ({@code > 0})
     *               Items must be given in (arrival, id) order: among equal Select minima the item with
     *               the largest index (latest arrival, then largest id) goes last.
     * @return item indices, highest priority first
     */
    public static int[] order(double[][] load, double[] weight) {
        int n = load.length;
        int[] sigma = new int[n];
        if (n == 0) {
            return sigma;
        }
        int ports = load[0].length;
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
                // Strictly smaller wins; on a tie the later item (larger index) goes last.
                if (sel < 0 || sameKey(key, best) || key < best) {
                    sel = c;
                    best = sameKey(key, best) ? best : key;
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
