package io.courier.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
    private static final long S = 1_000_000_000L;

    @Test
    void silentForShortRunsThenOneLineEveryFiveSecondsWhenNotATerminal() {
        AtomicLong clock = new AtomicLong(100 * S);
        StringWriter sw = new StringWriter();
        ProgressLine p = new ProgressLine(new PrintWriter(sw), "[1/2] fair", false, clock::get);
        clock.addAndGet(S);
        p.progress(3.0, 1, 10);
        assertEquals("", sw.toString());
        clock.addAndGet(S + S / 2); // 2.5 s
        p.progress(4.25, 2, 10);
        clock.addAndGet(S); // 3.5 s: within 5 s of the last line
        p.progress(5.0, 3, 10);
        clock.addAndGet(4 * S + S / 2); // 8 s
        p.progress(6.0, 4, 10);
        p.finish(10, 9.0);
        assertEquals("[1/2] fair: 2/10 coflows done, simulated t=4.3 s, wall 2.5 s\n"
                + "[1/2] fair: 4/10 coflows done, simulated t=6.0 s, wall 8.0 s\n"
                + "[1/2] fair: 10 coflows done in 9.0 s wall\n", sw.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void rewritesInPlaceOnATerminal() {
        AtomicLong clock = new AtomicLong(0);
        StringWriter sw = new StringWriter();
        ProgressLine p = new ProgressLine(new PrintWriter(sw), "aalo", true, clock::get);
        clock.set(3 * S);
        p.progress(12.5, 10, 100);
        clock.set(3 * S + S / 10);
        p.progress(1.5, 9, 100);
        p.finish(100, 4);
        String expected = "\raalo: 10/100 coflows done, simulated t=12.5 s, wall 3.0 s"
                + "\raalo: 9/100 coflows done, simulated t=1.5 s, wall 3.1 s  "
                + "\raalo: 100 coflows done in 4.0 s wall" + "                   \n"; // 19 = length difference
        assertEquals(expected, sw.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void finishPrintsNothingForQuietRuns() {
        StringWriter sw = new StringWriter();
        ProgressLine p = new ProgressLine(new PrintWriter(sw), "x", true, () -> 0L);
        p.progress(1, 1, 1);
        p.finish(1, 0.1);
        assertEquals("", sw.toString());
    }
}
