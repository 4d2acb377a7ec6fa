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
        // A coflow touches few of the ports: each step reads only the coflows with a load at its bottleneck (by port,
        // ascending) and subtracts only the selected coflow's loads that are not 0. Skipping the zeros changes
        // nothing: a zero load is an infinite key, which can only be chosen when no finite one exists (then, as in a
        // scan of all, the last unplaced coflow is), and subtracting 0 from a wbar or a total leaves it as it was.
        int[] perPort = new int[ports + 1];
        int[] portsOf = new int[n + 1];
        for (int c = 0; c < n; c++) {
            double[] l = load[c];
            int touched = 0;
            for (int p = 0; p < ports; p++) {
                total[p] += l[p];
                if (l[p] != 0) {
                    perPort[p + 1]++;
                    touched++;
                }
            }
            portsOf[c + 1] = portsOf[c] + touched;
        }
        for (int p = 0; p < ports; p++) {
            perPort[p + 1] += perPort[p];
        }
        int[] coflowsAt = new int[perPort[ports]];
        int[] portList = new int[portsOf[n]];
        int[] fill = java.util.Arrays.copyOf(perPort, ports);
        for (int c = 0; c < n; c++) {
            double[] l = load[c];
            int k = portsOf[c];
            for (int p = 0; p < ports; p++) {
                if (l[p] != 0) {
                    coflowsAt[fill[p]++] = c;
                    portList[k++] = p;
                }
            }
        }
        boolean[] placed = new boolean[n];
        int lastUnplaced = n - 1;
        for (int k = n - 1; k >= 0; k--) {
            int b = 0;
            for (int p = 1; p < ports; p++) {
                if (total[p] > total[b]) {
                    b = p;
                }
            }
            int sel = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int j = perPort[b]; j < perPort[b + 1]; j++) {
                int c = coflowsAt[j];
                if (placed[c]) {
                    continue;
                }
                double key = load[c][b] > 0 ? wbar[c] / load[c][b] : Double.POSITIVE_INFINITY;
                if (key == Double.POSITIVE_INFINITY) {
                    continue; // as a zero load: it cannot beat a finite key, and ties among infinite ones are below
                }
                // Strictly smaller wins; on a tie the later item (larger index) goes last.
                if (sel < 0 || sameKey(key, best) || key < best) {
                    sel = c;
                    best = sameKey(key, best) ? best : key;
                }
            }
            if (sel < 0) {
                while (placed[lastUnplaced]) {
                    lastUnplaced--;
                }
                sel = lastUnplaced; // every key is infinite: the latest unplaced item goes last
            }
            sigma[k] = sel;
            placed[sel] = true;
            double theta = load[sel][b] > 0 ? wbar[sel] / load[sel][b] : 0.0;
            if (Double.isInfinite(theta)) {
                for (int c = 0; c < n; c++) { // ∞ · 0 is NaN: every unplaced coflow's wbar changes
                    if (!placed[c]) {
                        wbar[c] -= theta * load[c][b];
                    }
                }
            } else {
                for (int j = perPort[b]; j < perPort[b + 1]; j++) {
                    int c = coflowsAt[j];
                    if (!placed[c]) {
                        wbar[c] -= theta * load[c][b];
                    }
                }
            }
            double[] l = load[sel];
            for (int j = portsOf[sel]; j < portsOf[sel + 1]; j++) {
                int p = portList[j];
                total[p] -= l[p];
            }
        }
        return sigma;
    }
}
