package io.courier.simulator.report;

import io.courier.simulator.engine.CoflowResult;

/**
 * The four coflow bins of the FB-trace literature (PAPER_RESULTS.md §0, matching Fai's Table 4): a coflow is
 * <em>short</em> when its largest flow is smaller than 5 MB (MB = 2<sup>20</sup> B) and <em>narrow</em> when it
 * has fewer than 50 flows. The boundaries belong to the long and wide side (exactly 5 MB is long, exactly 50
 * flows is wide).
 */
public enum CoflowBin {
    /** Short and narrow. */
    SN,
    /** Long and narrow. */
    LN,
    /** Short and wide. */
    SW,
    /** Long and wide. */
    LW;

    /** Largest-flow size below which a coflow is short: 5 MB. */
    public static final double SHORT_BELOW_BYTES = 5.0 * 1048576;
    /** Flow count below which a coflow is narrow. */
    public static final int NARROW_BELOW_FLOWS = 50;

    /** The bin of a coflow with this largest flow (bytes) and this many flows. */
    public static CoflowBin of(double largestFlowBytes, int width) {
        boolean isShort = largestFlowBytes < SHORT_BELOW_BYTES;
        boolean narrow = width < NARROW_BELOW_FLOWS;
        if (isShort) {
            return narrow ? SN : SW;
        }
        return narrow ? LN : LW;
    }

    public static CoflowBin of(CoflowResult c) {
        return of(c.largestFlowBytes(), c.width());
    }
}
