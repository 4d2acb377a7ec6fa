package io.courier.scheduler.primitives;

import io.courier.scheduler.model.Network;

/**
 * The hosts whose up port, and those whose down port, still have more than the network's rate epsilon left in a
 * residual array that only shrinks (as {@link GreedyTopUp} spends it). An order enforcer walks hundreds of coflows
 * per decision, and after the first few most ports are spent: the coflows after them then look at the few open
 * ports instead of every host's two. Both lists stay in ascending host order. Used by one thread, for one residual
 * array, during one enforcement.
 */
public final class OpenHostPorts {
    private final Network network;
    private final double[] residual;
    private final double eps;
    private final int[] up;
    private final int[] down;
    private int upCount;
    private int downCount;

    /** The open ports of {@code residual} (indexed by the network's resources) as it is now. */
    public OpenHostPorts(Network network, double[] residual) {
        this.network = network;
        this.residual = residual;
        this.eps = network.rateEpsilon();
        int hosts = network.hostCount();
        up = new int[hosts];
        down = new int[hosts];
        for (int h = 0; h < hosts; h++) {
            if (residual[network.up(h)] > eps) {
                up[upCount++] = h;
            }
            if (residual[network.down(h)] > eps) {
                down[downCount++] = h;
            }
        }
    }

    /**
     * Drops the ports spent since the last call; residuals only shrink, so a spent port never reopens. Called by
     * whoever spends the residual ({@link GreedyTopUp#applyToCoflow}), so the lists are current between calls.
     */
    void refresh() {
        int n = 0;
        for (int k = 0; k < upCount; k++) {
            int h = up[k];
            if (residual[network.up(h)] > eps) {
                up[n++] = h;
            }
        }
        upCount = n;
        n = 0;
        for (int k = 0; k < downCount; k++) {
            int h = down[k];
            if (residual[network.down(h)] > eps) {
                down[n++] = h;
            }
        }
        downCount = n;
    }

    /** Whether every up port or every down port is spent: no flow can get anything more. */
    public boolean exhausted() {
        return upCount == 0 || downCount == 0;
    }

    /** The open hosts on the source side (up ports) or the destination side, ascending; valid until the next refresh. */
    int[] hosts(boolean srcSide) {
        return srcSide ? up : down;
    }

    int count(boolean srcSide) {
        return srcSide ? upCount : downCount;
    }

    double[] residual() {
        return residual;
    }
}
