package io.courier.simulator.cli;

import io.courier.simulator.engine.ProgressListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The progress line of one run on stderr. Silent for the first {@link #QUIET_NANOS} of wall time, so short
 * runs print nothing. On a terminal the line is rewritten in place with {@code \r}; otherwise (stderr
 * redirected to a file or a pipe) one line is printed at most every {@link #LOG_EVERY_NANOS}. Not thread-safe:
 * one instance per run, called on the simulating thread.
 */
public final class ProgressLine implements ProgressListener {
    /** Runs shorter than this print no progress. */
    public static final long QUIET_NANOS = 2_000_000_000L;
    /** Interval between lines when stderr is not a terminal. */
    public static final long LOG_EVERY_NANOS = 5_000_000_000L;

    private final PrintWriter err;
    private final String run;
    private final boolean inPlace;
    private final LongSupplier clock;
    private final long started;
    private long lastPrinted = Long.MIN_VALUE;
    private int lastLength;
    private boolean printed;

    /**
     * @param run     how the line names the run, e.g. {@code [2/4] aalo+courier}
     * @param inPlace rewrite the line with {@code \r} (stderr is a terminal) instead of printing new lines
     * @param clock   nanosecond clock ({@code System::nanoTime} outside tests)
     */
    public ProgressLine(PrintWriter err, String run, boolean inPlace, LongSupplier clock) {
        this.err = err;
        this.run = run;
        this.inPlace = inPlace;
        this.clock = clock;
        this.started = clock.getAsLong();
    }

    @Override
    public void progress(double now, int done, int total) {
        long t = clock.getAsLong();
        if (t - started < QUIET_NANOS) {
            return;
        }
        if (!inPlace && lastPrinted != Long.MIN_VALUE && t - lastPrinted < LOG_EVERY_NANOS) {
            return;
        }
        lastPrinted = t;
        String line = String.format(Locale.ROOT, "%s: %d/%d coflows done, simulated t=%.1f s, wall %.1f s",
                run, done, total, now, (t - started) / 1e9);
        if (inPlace) {
            StringBuilder sb = new StringBuilder("\r").append(line);
            for (int i = line.length(); i < lastLength; i++) {
                sb.append(' ');
            }
            err.print(sb);
            lastLength = line.length();
        } else {
            err.println(line);
        }
        err.flush();
        printed = true;
    }

    /** Ends the line after the run; prints nothing if no progress was shown. */
    public void finish(int total, double wallSeconds) {
        if (!printed) {
            return;
        }
        String line = String.format(Locale.ROOT, "%s: %d coflows done in %.1f s wall", run, total, wallSeconds);
        if (inPlace) {
            StringBuilder sb = new StringBuilder("\r").append(line);
            for (int i = line.length(); i < lastLength; i++) {
                sb.append(' ');
            }
            err.println(sb);
        } else {
            err.println(line);
        }
        err.flush();
    }
}
