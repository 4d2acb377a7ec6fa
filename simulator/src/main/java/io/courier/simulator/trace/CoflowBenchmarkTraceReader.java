package io.courier.simulator.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the coflow-benchmark trace format (PAPER_RESULTS.md §0):
 * <pre>
 * &lt;racks&gt; &lt;coflows&gt;
 * &lt;id&gt; &lt;arrival ms&gt; &lt;#mappers&gt; &lt;mapper rack&gt;… &lt;#reducers&gt; &lt;rack&gt;:&lt;MB&gt;…
 * </pre>
 * Every line is validated as it is read, and the first malformed one fails with a
 * {@link TraceFormatException} naming the source, the line and the problem: wrong field count,
 * non-numeric or negative numbers, racks outside {@code [0, racks)}, a reducer field without {@code :},
 * an MB value that is not a finite decimal, a duplicate coflow id, or a header count that does not match
 * the coflow lines. Whitespace-only lines are skipped (line numbers still count them).
 *
 * <p>Deliberately stricter than CoflowSim's reader, which silently accepts short files: a trace that
 * parses here is exactly what its header claims. Ids and arrivals are non-negative integers, every
 * coflow has at least one mapper and one reducer (a coflow without flows can never complete), and MB
 * values are at most 2<sup>33</sup> so that byte counts stay exact in a {@code double}.
 */
public final class CoflowBenchmarkTraceReader {
    /** Largest accepted reducer volume in MB: 2^33 MB = 2^53 bytes, the exact-integer range of a double. */
    public static final double MAX_MEGABYTES = 8589934592.0;

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    // Plain decimals only: Double.parseDouble would also take "NaN", "Infinity", hex floats and "1.0f".
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private CoflowBenchmarkTraceReader() {
    }

    /** Reads a trace file; error messages name the file as given. */
    public static CoflowTrace read(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(in, file.toString());
        }
    }

    /**
     * Reads a trace from {@code in} (not closed here); {@code sourceName} stands for the file in error
     * messages and becomes {@link CoflowTrace#source()}.
     */
    public static CoflowTrace read(Reader in, String sourceName) throws IOException {
        BufferedReader lines = in instanceof BufferedReader ? (BufferedReader) in : new BufferedReader(in);
        int lineNo = 0;
        String line;
        Header header = null;
        List<TraceCoflow> coflows = new ArrayList<>();
        Map<Long, Integer> lineOfId = new HashMap<>();
        while ((line = lines.readLine()) != null) {
            lineNo++;
            String trimmed = line.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            LineParser p = new LineParser(sourceName, lineNo, WHITESPACE.split(trimmed));
            if (header == null) {
                header = p.header();
                continue;
            }
            if (coflows.size() == header.coflows) {
                throw p.fail("coflow line beyond the " + header.coflows + " coflows declared by the header on line "
                        + header.line);
            }
            TraceCoflow c = p.coflow(header.racks);
            Integer previous = lineOfId.put(c.id(), lineNo);
            if (previous != null) {
                throw p.fail("duplicate coflow id " + c.id() + " (already used on line " + previous + ")");
            }
            coflows.add(c);
        }
        if (header == null) {
            throw new TraceFormatException(sourceName, Math.max(lineNo, 1),
                    "missing header '<racks> <coflows>': the input has no non-blank line");
        }
        if (coflows.size() != header.coflows) {
            throw new TraceFormatException(sourceName, header.line, "header declares " + header.coflows
                    + " coflows but " + coflows.size() + " coflow lines follow");
        }
        return new CoflowTrace(sourceName, header.racks, coflows);
    }

    private static final class Header {
        final int line;
        final int racks;
        final int coflows;

        Header(int line, int racks, int coflows) {
            this.line = line;
            this.racks = racks;
            this.coflows = coflows;
        }
    }

    /** Parses the fields of one line; every failure names the field it concerns. */
    private static final class LineParser {
        private final String source;
        private final int line;
        private final String[] f;

        LineParser(String source, int line, String[] fields) {
            this.source = source;
            this.line = line;
            this.f = fields;
        }

        TraceFormatException fail(String problem) {
            return new TraceFormatException(source, line, problem);
        }

        Header header() throws TraceFormatException {
            if (f.length != 2) {
                throw fail("header must be '<racks> <coflows>' (2 fields), found " + f.length + " fields");
            }
            int racks = nonNegativeInt(f[0], "rack count");
            if (racks < 1) {
                throw fail("rack count must be >= 1, got " + racks);
            }
            return new Header(line, racks, nonNegativeInt(f[1], "coflow count"));
        }

        TraceCoflow coflow(int racks) throws TraceFormatException {
            if (f.length < 3) {
                throw fail("expected at least 3 fields '<id> <arrival ms> <#mappers> ...', found " + f.length);
            }
            long id = nonNegativeLong(f[0], "coflow id");
            long arrival = nonNegativeLong(f[1], "arrival ms");
            int mappers = count(f[2], "#mappers");
            if (f.length < 4 + mappers) {
                throw fail("coflow " + id + " declares " + mappers + " mappers, so expected at least " + (4 + mappers)
                        + " fields up to <#reducers>, found " + f.length);
            }
            List<Integer> mapperRacks = new ArrayList<>(mappers);
            for (int k = 0; k < mappers; k++) {
                mapperRacks.add(rack(f[3 + k], "mapper " + (k + 1) + " of " + mappers, racks));
            }
            int reducers = count(f[3 + mappers], "#reducers");
            int expected = 4 + mappers + reducers;
            if (f.length != expected) {
                throw fail("coflow " + id + " declares " + mappers + " mappers and " + reducers
                        + " reducers, so expected " + expected + " fields, found " + f.length);
            }
            List<TraceReducer> reducerList = new ArrayList<>(reducers);
            for (int k = 0; k < reducers; k++) {
                reducerList.add(reducer(f[4 + mappers + k], "reducer " + (k + 1) + " of " + reducers, racks));
            }
            return new TraceCoflow(id, arrival, mapperRacks, reducerList);
        }

        private TraceReducer reducer(String field, String what, int racks) throws TraceFormatException {
            int colon = field.indexOf(':');
            if (colon < 0) {
                throw fail(what + " ('" + field + "') has no ':' (expected <rack>:<MB>)");
            }
            if (field.indexOf(':', colon + 1) >= 0) {
                throw fail(what + " ('" + field + "') has more than one ':' (expected <rack>:<MB>)");
            }
            int rack = rack(field.substring(0, colon), what + " rack", racks);
            String mb = field.substring(colon + 1);
            if (!DECIMAL.matcher(mb).matches()) {
                throw fail(what + " MB '" + mb + "' is not a finite decimal number");
            }
            double value = Double.parseDouble(mb);
            if (Double.isInfinite(value)) {
                throw fail(what + " MB '" + mb + "' is not finite");
            }
            if (value < 0) {
                throw fail(what + " MB must be >= 0, got " + mb);
            }
            if (value > MAX_MEGABYTES) {
                throw fail(what + " MB " + mb + " exceeds " + (long) MAX_MEGABYTES
                        + " (2^53 bytes, beyond which byte counts lose precision)");
            }
            return new TraceReducer(rack, value);
        }

        private int rack(String field, String what, int racks) throws TraceFormatException {
            int rack = nonNegativeInt(field, what);
            if (rack >= racks) {
                throw fail(what + ": rack " + rack + " is outside [0, " + racks + ")");
            }
            return rack;
        }

        private int count(String field, String what) throws TraceFormatException {
            int n = nonNegativeInt(field, what);
            if (n < 1) {
                throw fail(what + " must be >= 1 (a coflow without mappers or reducers has no flows), got " + n);
            }
            return n;
        }

        private int nonNegativeInt(String field, String what) throws TraceFormatException {
            long v = nonNegativeLong(field, what);
            if (v > Integer.MAX_VALUE) {
                throw fail(what + " " + v + " is too large (max " + Integer.MAX_VALUE + ")");
            }
            return (int) v;
        }

        private long nonNegativeLong(String field, String what) throws TraceFormatException {
            long v;
            try {
                v = Long.parseLong(field);
            } catch (NumberFormatException e) {
                throw fail(what + " '" + field + "' is not an integer");
            }
            if (v < 0) {
                throw fail(what + " must be >= 0, got " + v);
            }
            return v;
        }
    }
}
