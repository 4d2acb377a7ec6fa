package io.courier.scheduler.model;

import java.util.Arrays;

/**
 * Per-port sums of one coflow, sparse: the host ports its flows touch, in ascending resource index
 * ({@link Network#up}, {@link Network#down}), each with the sum of a per-flow value over the coflow's flows on it,
 * added in flow order. Immutable.
 */
public final class PortSums {
    private final int[] ports;
    private final double[] sums;
    private final double max;

    private PortSums(int[] ports, double[] sums, double max) {
        this.ports = ports;
        this.sums = sums;
        this.max = max;
    }

    /** {@code value[f]} of every flow in {@code flows} added to its up and its down port, in the order given. */
    static PortSums of(int[] flows, int[] src, int[] dst, double[] value, Network network) {
        int portCount = 2 * network.hostCount();
        double[] scratch = new double[portCount];
        boolean[] seen = new boolean[portCount];
        int[] touched = new int[Math.min(2 * flows.length, portCount)];
        int n = 0;
        for (int f : flows) {
            double v = value[f];
            int up = network.up(src[f]);
            int down = network.down(dst[f]);
            scratch[up] += v;
            scratch[down] += v;
            if (!seen[up]) {
                seen[up] = true;
                touched[n++] = up;
            }
            if (!seen[down]) {
                seen[down] = true;
                touched[n++] = down;
            }
        }
        Arrays.sort(touched, 0, n);
        int[] ports = Arrays.copyOf(touched, n);
        double[] sums = new double[n];
        double max = 0;
        for (int k = 0; k < n; k++) {
            int p = ports[k];
            sums[k] = scratch[p];
            max = Math.max(max, scratch[p]);
        }
        return new PortSums(ports, sums, max);
    }

    /** How many ports the coflow touches. */
    public int size() {
        return ports.length;
    }

    /** The resource index of the {@code k}-th port (ascending in {@code k}). */
    public int port(int k) {
        return ports[k];
    }

    /** The sum at the {@code k}-th port. */
    public double sum(int k) {
        return sums[k];
    }

    /** The largest sum, or 0 when the coflow touches no port (sums are of non-negative values). */
    public double max() {
        return max;
    }
}
