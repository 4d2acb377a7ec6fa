package io.courier.scheduler.stream;

/**
 * The optional starvation rule of SCHEDULERS.md §7 (line 4, [resolved]): a sub-coflow some of whose flows have
 * received nothing for {@code s·T_starve} consecutive time is served {@code s} levels higher, transiently; the
 * promotion ends as soon as every flow gets bytes again. A permanent promotion would flatten all levels in a long
 * simulation, so the level kept by the demotion rule is never touched. Immutable.
 */
public final class StarvationAging {
    private static final StarvationAging OFF = new StarvationAging(Double.POSITIVE_INFINITY);
    /** Slack on {@code stalled/T} so that a stall of exactly {@code s·T} counts as {@code s} steps. */
    private static final double STEP_SLACK = 1e-9;

    private final double timer;

    private StarvationAging(double timer) {
        this.timer = timer;
    }

    /** No promotion (the default). */
    public static StarvationAging off() {
        return OFF;
    }

    /** One level of promotion per {@code timerSeconds} of consecutive stall ({@code T_starve}, {@code > 0}). */
    public static StarvationAging every(double timerSeconds) {
        if (!(timerSeconds > 0) || Double.isInfinite(timerSeconds)) {
            throw new IllegalArgumentException("Stream: parameter 'starvationTimer' must be a finite number of "
                    + "seconds > 0, got " + timerSeconds);
        }
        return new StarvationAging(timerSeconds);
    }

    public boolean enabled() {
        return timer != Double.POSITIVE_INFINITY;
    }

    /** {@code T_starve} in seconds; +∞ when off. */
    public double timer() {
        return timer;
    }

    /** The number of levels {@code s} to promote a sub-coflow that has been stalled for {@code seconds}. */
    public int steps(double seconds) {
        if (!enabled() || !(seconds > 0)) {
            return 0;
        }
        double s = Math.floor(seconds / timer + STEP_SLACK);
        return s >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) s;
    }

    @Override
    public String toString() {
        return enabled() ? "StarvationAging(every " + timer + " s)" : "StarvationAging(off)";
    }
}
