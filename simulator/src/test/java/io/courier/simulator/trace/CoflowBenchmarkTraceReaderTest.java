package io.courier.simulator.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CoflowBenchmarkTraceReaderTest {
    private static final String VALID = "3 2\n"
            + "7 0 2 0 2 1 1:4.0\n"
            + "\n"
            + "9 1500 1 2 2 0:0.5 2:10\n";

    private static CoflowTrace read(String text) throws IOException {
        return CoflowBenchmarkTraceReader.read(new StringReader(text), "inline.txt");
    }

    private static String lines(String... ls) {
        return String.join("\n", ls) + "\n";
    }

    @Test
    void parsesAValidTraceWithItsValuesAndOrder() throws IOException {
        CoflowTrace t = read(VALID);
        assertEquals("inline.txt", t.source());
        assertEquals(3, t.racks());
        assertEquals(2, t.coflows().size());

        TraceCoflow a = t.coflows().get(0);
        assertEquals(7, a.id());
        assertEquals(0, a.arrivalMillis());
        assertEquals(Arrays.asList(0, 2), a.mapperRacks());
        assertEquals(Arrays.asList(new TraceReducer(1, 4.0)), a.reducers());
        assertEquals(2, a.width());

        TraceCoflow b = t.coflows().get(1);
        assertEquals(9, b.id());
        assertEquals(1500, b.arrivalMillis());
        assertEquals(1.5, b.arrivalSeconds(), 0);
        assertEquals(Arrays.asList(2), b.mapperRacks());
        assertEquals(Arrays.asList(new TraceReducer(0, 0.5), new TraceReducer(2, 10.0)), b.reducers());
        assertEquals(10.5, b.totalMegabytes(), 0);
        assertEquals(0.5 * 1048576, b.reducers().get(0).bytes(), 0);
    }

    @Test
    void readsAFileThroughTheSameParserAndNamesTheFile(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.txt");
        Files.write(good, VALID.getBytes(StandardCharsets.UTF_8));
        CoflowTrace t = CoflowBenchmarkTraceReader.read(good);
        assertEquals(read(VALID).coflows(), t.coflows());
        assertEquals(good.toString(), t.source());

        Path bad = dir.resolve("bad.txt");
        Files.write(bad, lines("3 1", "7 0 1 0 1 1-4.0").getBytes(StandardCharsets.UTF_8));
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> CoflowBenchmarkTraceReader.read(bad));
        assertEquals(bad.toString() + ", line 2: reducer 1 of 1 ('1-4.0') has no ':' (expected <rack>:<MB>)",
                e.getMessage());
        assertEquals(2, e.line());
        assertEquals(bad.toString(), e.source());
    }

    @Test
    void anEmptyTraceWithZeroCoflowsIsValid() throws IOException {
        CoflowTrace t = read("150 0\n");
        assertEquals(150, t.racks());
        assertTrue(t.coflows().isEmpty());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("empty input", "", 1, "missing header"),
                Arguments.of("blank input", "  \n\n", 2, "missing header"),
                Arguments.of("header with 3 fields", lines("3 1 9"), 1,
                        "header must be '<racks> <coflows>' (2 fields), found 3 fields"),
                Arguments.of("non-numeric header", lines("x 1"), 1, "rack count 'x' is not an integer"),
                Arguments.of("zero racks", lines("0 0"), 1, "rack count must be >= 1, got 0"),
                Arguments.of("negative coflow count", lines("3 -1"), 1, "coflow count must be >= 0, got -1"),
                Arguments.of("too few fields", lines("3 1", "7 0"), 2,
                        "expected at least 3 fields '<id> <arrival ms> <#mappers> ...', found 2"),
                Arguments.of("non-numeric id", lines("3 1", "a 0 1 0 1 1:1"), 2, "coflow id 'a' is not an integer"),
                Arguments.of("negative id", lines("3 1", "-7 0 1 0 1 1:1"), 2, "coflow id must be >= 0, got -7"),
                Arguments.of("negative arrival", lines("3 1", "7 -5 1 0 1 1:1"), 2,
                        "arrival ms must be >= 0, got -5"),
                Arguments.of("fractional arrival", lines("3 1", "7 1.5 1 0 1 1:1"), 2,
                        "arrival ms '1.5' is not an integer"),
                Arguments.of("zero mappers", lines("3 1", "7 0 0 1 1:1"), 2, "#mappers must be >= 1"),
                Arguments.of("mapper list cut short", lines("3 1", "7 0 3 0 1"), 2,
                        "coflow 7 declares 3 mappers, so expected at least 7 fields up to <#reducers>, found 5"),
                Arguments.of("non-numeric #reducers", lines("3 1", "7 0 1 0 x 1:1"), 2,
                        "#reducers 'x' is not an integer"),
                Arguments.of("zero reducers", lines("3 1", "7 0 1 0 0"), 2, "#reducers must be >= 1"),
                Arguments.of("too many fields", lines("3 1", "7 0 2 0 1 1 2:1 0:1"), 2,
                        "coflow 7 declares 2 mappers and 1 reducers, so expected 7 fields, found 8"),
                Arguments.of("too few reducer fields", lines("3 1", "7 0 1 0 2 2:1"), 2,
                        "coflow 7 declares 1 mappers and 2 reducers, so expected 7 fields, found 6"),
                Arguments.of("mapper rack out of range", lines("3 1", "7 0 2 0 3 1 1:1"), 2,
                        "mapper 2 of 2: rack 3 is outside [0, 3)"),
                Arguments.of("negative mapper rack", lines("3 1", "7 0 1 -1 1 1:1"), 2,
                        "mapper 1 of 1 must be >= 0, got -1"),
                Arguments.of("huge mapper rack", lines("3 1", "7 0 1 99999999999 1 1:1"), 2,
                        "mapper 1 of 1 99999999999 is too large"),
                Arguments.of("non-numeric mapper rack", lines("3 1", "7 0 1 r1 1 1:1"), 2,
                        "mapper 1 of 1 'r1' is not an integer"),
                Arguments.of("reducer without colon", lines("3 1", "7 0 1 0 2 1:1 2"), 2,
                        "reducer 2 of 2 ('2') has no ':' (expected <rack>:<MB>)"),
                Arguments.of("reducer with two colons", lines("3 1", "7 0 1 0 1 1:1:1"), 2,
                        "reducer 1 of 1 ('1:1:1') has more than one ':'"),
                Arguments.of("reducer rack out of range", lines("3 1", "7 0 1 0 1 5:1"), 2,
                        "reducer 1 of 1 rack: rack 5 is outside [0, 3)"),
                Arguments.of("non-numeric reducer rack", lines("3 1", "7 0 1 0 1 x:1"), 2,
                        "reducer 1 of 1 rack 'x' is not an integer"),
                Arguments.of("empty MB", lines("3 1", "7 0 1 0 1 1:"), 2,
                        "reducer 1 of 1 MB '' is not a finite decimal number"),
                Arguments.of("NaN MB", lines("3 1", "7 0 1 0 1 1:NaN"), 2,
                        "reducer 1 of 1 MB 'NaN' is not a finite decimal number"),
                Arguments.of("infinite MB", lines("3 1", "7 0 1 0 1 1:Infinity"), 2,
                        "reducer 1 of 1 MB 'Infinity' is not a finite decimal number"),
                Arguments.of("MB overflowing a double", lines("3 1", "7 0 1 0 1 1:1e400"), 2,
                        "reducer 1 of 1 MB '1e400' is not finite"),
                Arguments.of("Java float suffix", lines("3 1", "7 0 1 0 1 1:1.0f"), 2,
                        "reducer 1 of 1 MB '1.0f' is not a finite decimal number"),
                Arguments.of("negative MB", lines("3 1", "7 0 1 0 1 1:-2.5"), 2,
                        "reducer 1 of 1 MB must be >= 0, got -2.5"),
                Arguments.of("too large MB", lines("3 1", "7 0 1 0 1 1:1e10"), 2,
                        "reducer 1 of 1 MB 1e10 exceeds 8589934592"),
                Arguments.of("duplicate id", lines("3 3", "7 0 1 0 1 1:1", "8 5 1 0 1 1:1", "7 9 1 0 1 1:1"), 4,
                        "duplicate coflow id 7 (already used on line 2)"),
                Arguments.of("more coflow lines than declared", lines("3 1", "7 0 1 0 1 1:1", "", "8 5 1 0 1 1:1"), 4,
                        "coflow line beyond the 1 coflows declared by the header on line 1"),
                Arguments.of("fewer coflow lines than declared", lines("", "3 3", "7 0 1 0 1 1:1", "8 5 1 0 1 1:1"), 2,
                        "header declares 3 coflows but 2 coflow lines follow"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedLineIsReportedWithSourceLineAndProblem(String kind, String text, int line, String problem) {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(text), kind);
        assertEquals(line, e.line(), kind + ": " + e.getMessage());
        assertEquals("inline.txt", e.source());
        assertTrue(e.getMessage().startsWith("inline.txt, line " + line + ": "), e.getMessage());
        assertTrue(e.problem().contains(problem), kind + ": expected '" + problem + "' in: " + e.getMessage());
    }
}
