package io.courier.simulator.engine;

import java.util.Arrays;
import java.util.List;

/**
 * Counts sending network flows on every host port between events: the maximum any port reached and the
 * time-weighted mean over busy port-intervals. Owned by one run.
 */
final class ConcurrencyMeter {
    private final int hosts;
    private final int[] count;
    private int max;
    private double weightedSum;
    private double busyTime;

    ConcurrencyMeter(int hosts) {
        this.hosts = hosts;
        this.count = new int[2 * hosts];
    }

    /** The network flows (src, dst host) that send during the next {@code dt} seconds. */
    void record(List<int[]> networkFlows, double dt) {
        Arrays.fill(count, 0);
        for (int[] f : networkFlows) {
            count[f[0]]++;
            count[hosts + f[1]]++;
        }
        for (int c : count) {
            if (c > 0) {
                max = Math.max(max, c);
                weightedSum += c * dt;
                busyTime += dt;
            }
        }
    }

    ConcurrencyStats stats() {
        return new ConcurrencyStats(max, busyTime > 0 ? weightedSum / busyTime : 0.0);
    }
}
