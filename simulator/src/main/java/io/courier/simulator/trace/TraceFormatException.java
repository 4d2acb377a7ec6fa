package io.courier.simulator.trace;

import java.io.IOException;

/**
 * A trace line that does not follow the coflow-benchmark format. The message names the source (file or
 * caller-given name), the 1-based line number and what is wrong, e.g.
 * {@code FB2010-1Hr-150-0.txt, line 7: reducer 2 of 3 ('65-1.0') has no ':' (expected <rack>:<MB>)}.
 */
public final class TraceFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final String problem;

    public TraceFormatException(String source, int line, String problem) {
        super(source + ", line " + line + ": " + problem);
        this.source = source;
        this.line = line;
        this.problem = problem;
    }

    public String source() {
        return source;
    }

    /** The 1-based line number the problem was found on. */
    public int line() {
        return line;
    }

    /** What is wrong, without the source and line. */
    public String problem() {
        return problem;
    }
}
