package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark's modes: {@code --modes} parsing (defaults, the coordinator's label, bad names refused), the
 * per-repeat rotation, and a summary with a row and a ratio line per mode. No root, no network.
 */
@Timeout(30)
class ModeTest {
    @Test
    void parsesModesAndLabelsTheCoordinatedOneByItsScheduler() {
        assertEquals(List.of(Mode.STOCK, Mode.COURIER, Mode.COURIER_COORD),
                Mode.parseList(List.of("stock", "courier", "courier+coord"), "varys"));
        assertEquals(List.of(Mode.COURIER_COORD, Mode.STOCK), Mode.parseList(List.of("Courier+Aalo", "STOCK"), "aalo"));
        assertEquals("courier+varys", Mode.COURIER_COORD.label("varys"));
        assertEquals("stock", Mode.STOCK.label("varys"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Mode.parseList(List.of("stock", "courier+sebf"), "varys"));
        assertTrue(e.getMessage().contains("courier+sebf"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Mode.parseList(List.of("stock", "stock"), "varys"));
    }

    @Test
    void rotatesThreeModesAndAlternatesTwo() {
        List<Mode> three = List.of(Mode.STOCK, Mode.COURIER, Mode.COURIER_COORD);
        assertEquals(three, Mode.order(three, 0));
        assertEquals(List.of(Mode.COURIER, Mode.COURIER_COORD, Mode.STOCK), Mode.order(three, 1));
        assertEquals(List.of(Mode.COURIER_COORD, Mode.STOCK, Mode.COURIER), Mode.order(three, 2));
        List<Mode> two = List.of(Mode.STOCK, Mode.COURIER);
        assertEquals(List.of(Mode.COURIER, Mode.STOCK), Mode.order(two, 1));
        assertEquals(two, Mode.order(two, 2));
    }

    @Test
    void runOptionsDefaultToThreeModesWithVarysAndThePayloadRate() {
        NetemuBench.Run run = new NetemuBench.Run();
        new CommandLine(run).parseArgs("--hosts", "8", "--rate-mbit", "25", "--socket-dir", "/tmp/x", "--out",
                "/tmp/y");
        assertEquals(List.of(Mode.STOCK, Mode.COURIER, Mode.COURIER_COORD), run.modes());
        assertEquals("varys", run.coordinatorScheduler);
        assertEquals(10, run.coordinatorEpochMillis);
        assertEquals("10.202.0", run.mgmtSubnet);
        assertEquals((long) (25e6 / 8 * 1448 / 1514), run.capacityBytesPerSec());
        new CommandLine(run).parseArgs("--hosts", "8", "--rate-mbit", "25", "--socket-dir", "/tmp/x", "--out",
                "/tmp/y", "--modes", "stock,courier+sincronia", "--coordinator-scheduler", "sincronia",
                "--coordinator-capacity", "1000");
        assertEquals(List.of(Mode.STOCK, Mode.COURIER_COORD), run.modes());
        assertEquals(1000, run.capacityBytesPerSec());
    }

    @Test
    void summaryHasARowAndARatioPerMode() {
        List<RunRecord> runs = List.of(record("stock", 2.0, 100), record("courier", 1.5, 50),
                record("courier+varys", 1.0, 0));
        String md = Report.markdown(new java.util.LinkedHashMap<>(), runs);
        assertTrue(md.startsWith("# Emulated-network benchmark: stock vs courier vs courier+varys"), md);
        assertTrue(md.contains("| valid | courier+varys | 1 | 1.000/1.000/1.000 |"), md);
        assertTrue(md.contains("Courier+varys median CCT 1.000 s vs stock 2.000 s (-50%); drops 0 vs 100 (-100%)"),
                md);
        assertTrue(md.contains("Courier median CCT 1.500 s vs stock 2.000 s (-25%)"), md);
        assertTrue(md.contains("| coord CPU cores |"), md);
    }

    private static RunRecord record(String mode, double cct, long drops) {
        return new RunRecord("small", "small", 0, mode, 0, "t", List.of(cct), cct, cct, 1.0, 1.0 / cct, drops, 1000,
                0, 0, drops, 0, 0, 0, 8, 7, 1, 1.0, 0.1, 0.8, 0.05, 0.01, 0.5, cct, List.of(), true, List.of(),
                new RunCpu(60, 60 * 32768, cct, List.of(cct), RoleCpu.none("not measured")));
    }
}
