package io.courier.scheduler.fai;

import io.courier.scheduler.model.ClusterState;

/**
 * Step 2 of Fai (SCHEDULERS.md §6, seed 001 Alg. 2): minimum-bytes-and-bandwidth bottleneck detection.
 * A coflow finishes with its slowest flow, so when the least-progressed flow is also the one with the
 * least bandwidth, every faster flow of the coflow only wastes bandwidth: it is cut to the bottleneck's
 * rate and the excess is handed back to the residual, for step 3 to give to other coflows.
 *
 * <p>Reads only bytes sent, never sizes. Immutable; the two tolerances are those of the spec's
 * parameter table (byte equality for line 10, bandwidth equality for line 13).
 */
final class Mbab {
    private final double bytesTolerance;
    private final double bandwidthTolerance;

    /**
     * @param bytesTolerance relative: two byte counts are equal when {@code |a−b| ≤ tol·max(1, a)}
     * @param bandwidthTolerance relative to the largest capacity: rates within {@code tol·maxCap} are equal
     */
    Mbab(double bytesTolerance, double bandwidthTolerance) {
        if (!(bytesTolerance >= 0) || Double.isInfinite(bytesTolerance)) {
            throw new IllegalArgumentException("MBAB byte tolerance must be finite and >= 0, got " + bytesTolerance);
        }
        if (!(bandwidthTolerance >= 0) || Double.isInfinite(bandwidthTolerance)) {
            throw new IllegalArgumentException("MBAB bandwidth tolerance must be finite and >= 0, got "
                    + bandwidthTolerance);
        }
        this.bytesTolerance = bytesTolerance;
        this.bandwidthTolerance = bandwidthTolerance;
    }

    double bytesTolerance() {
        return bytesTolerance;
    }

    double bandwidthTolerance() {
        return bandwidthTolerance;
    }

    /**
     * Applies MBAB to one coflow: when some flow with the minimum bytes sent also has the minimum
     * bandwidth, sets every unfinished flow's {@code bw} to that minimum and adds what it took away to
     * {@code residual} on the flow's resources. Otherwise leaves everything unchanged.
     *
     * @param bw per-flow bandwidth indexed like {@code state.flows()}; modified
     * @param residual per-resource remaining bandwidth; modified
     * @return whether a bottleneck was found (and the coflow equalised)
     */
    boolean equalize(ClusterState state, int coflow, double[] bw, double[] residual) {
        int[] flows = state.unfinishedFlowsOf(coflow);
        if (flows.length == 0) {
            return false;
        }
        double minBytes = Double.POSITIVE_INFINITY;
        double minBw = Double.POSITIVE_INFINITY;
        double maxBw = Double.NEGATIVE_INFINITY;
        for (int f : flows) {
            minBytes = Math.min(minBytes, state.sent(f));
            double r = bw[f];
            minBw = Math.min(minBw, r);
            maxBw = Math.max(maxBw, r);
        }
        if (minBw == maxBw) {
            // Every flow at one rate (a paused coflow, say): the least-progressed flow has the least bandwidth, and
            // equalising changes nothing.
            return true;
        }
        double bwTol = bandwidthTolerance * state.network().maxCapacity();
        boolean bottleneck = false;
        for (int f : flows) {
            double sent = state.sent(f);
            boolean leastBytes = Math.abs(sent - minBytes) <= bytesTolerance * Math.max(1.0, sent);
            if (leastBytes && Math.abs(bw[f] - minBw) <= bwTol) {
                bottleneck = true;
                break;
            }
        }
        if (!bottleneck) {
            return false;
        }
        // A blocked bottleneck (minBw = 0) pauses the whole coflow: it cannot finish earlier anyway (spec §6).
        for (int g : flows) {
            double excess = bw[g] - minBw;
            if (excess > 0) {
                state.addToResources(g, excess, residual);
            }
            bw[g] = minBw;
        }
        return true;
    }
}
