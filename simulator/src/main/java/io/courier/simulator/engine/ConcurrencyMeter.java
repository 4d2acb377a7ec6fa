package io.courier.simulator.engine;

import io.courier.scheduler.model.ClusterState;
import java.util.List;

/**
 * Counts sending network flows on every host port between events: the maximum any port reached and the
 * time-weighted mean over busy port-intervals. Owned by one run.
 */
final class ConcurrencyMeter {
    private final int hosts;
    private int max;
    private double weightedSum;
    private double busyTime;

    ConcurrencyMeter(int hosts) {
        this.hosts = hosts;
    }

    /** Sending network flows per port (up ports, then down ports) for network flows given as (src, dst). */
    int[] portCounts(List<int[]> networkFlows) {
        int[] count = new int[2 * hosts];
        for (int[] f : networkFlows) {
            count[f[0]]++;
            count[hosts + f[1]]++;
        }
        return count;
    }

    /**
     * Sending network flows per port when every flow of {@code state} with a positive rate is one: the
     * positions {@code positive[0..positiveCount)} of the state's flows.
     */
    int[] portCounts(ClusterState state, int[] positive, int positiveCount) {
        int[] count = new int[2 * hosts];
        for (int k = 0; k < positiveCount; k++) {
            int i = positive[k];
            count[state.src(i)]++;
            count[hosts + state.dst(i)]++;
        }
        return count;
    }

    /** Port counts from {@link #portCounts} that hold for the next {@code dt} seconds. */
    void record(int[] count, double dt) {
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
