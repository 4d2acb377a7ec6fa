package io.courier.scheduler.primitives;

import java.util.Arrays;

/**
 * The flows a greedy pass ({@link GreedyTopUp}) gave a rate to, each once: a driver that keeps its rate buffer at 0
 * between decisions learns from it which entries are positive without scanning every flow. Used by one thread, for
 * one enforcement at a time ({@link #clear} between them).
 */
public final class ToppedFlows {
    private int[] flows = new int[16];
    private int count;

    void add(int flow) {
        if (count == flows.length) {
            flows = Arrays.copyOf(flows, 2 * count);
        }
        flows[count++] = flow;
    }

    public void clear() {
        count = 0;
    }

    public int count() {
        return count;
    }

    /** Writes the flows, ascending, to {@code out[0..count())}. */
    public void sortedInto(int[] out) {
        System.arraycopy(flows, 0, out, 0, count);
        Arrays.sort(out, 0, count);
    }
}
