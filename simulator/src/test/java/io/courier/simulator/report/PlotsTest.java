package io.courier.simulator.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.ConcurrencyStats;
import io.courier.simulator.engine.SimulationResult;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotsTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    static void assertPng(Path f, int width, int height) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        assertTrue(bytes.length > 1000, f + " has only " + bytes.length + " bytes");
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(bytes, 8), f + " does not start with the PNG signature");
        BufferedImage img = ImageIO.read(f.toFile());
        assertNotNull(img, f + " is not a readable image");
        assertEquals(width, img.getWidth());
        assertEquals(height, img.getHeight());
    }

    @Test
    void cdfAndBinPlotsArePngs() throws IOException {
        List<SimulationResult> runs = Arrays.asList(Results.tenCoflows("fair", false, 2.0),
                Results.tenCoflows("varys", false, 1.0), Results.tenCoflows("varys", true, 0.5));
        List<RunSummary> sums = new ArrayList<>();
        for (SimulationResult r : runs) {
            sums.add(RunSummary.of(r));
        }
        Path cdf = dir.resolve("cdf.png");
        assertTrue(Plots.writeCctCdf(runs, cdf));
        assertPng(cdf, 900, 600);
        Path bins = dir.resolve("bins.png");
        assertTrue(Plots.writeBinBars(sums, 1, bins));
        assertPng(bins, 1800, 600);
    }

    @Test
    void cdfOfManyCoflowsAndRepeatedNames() throws IOException {
        List<CoflowResult> cs = new ArrayList<>();
        for (int i = 0; i < 3 * Plots.MAX_CDF_POINTS + 7; i++) {
            cs.add(new CoflowResult(i, 0, 1e-3 * (i + 1), 1, 1, 1, 1));
        }
        SimulationResult r = new SimulationResult("fifo", false, cs, new ConcurrencyStats(1, 1), 1, 0);
        Path cdf = dir.resolve("many.png");
        assertTrue(Plots.writeCctCdf(Arrays.asList(r, r), cdf));
        assertPng(cdf, 900, 600);
    }

    @Test
    void nothingToPlotWritesNothing() throws IOException {
        SimulationResult empty = new SimulationResult("fifo", false, Collections.<CoflowResult>emptyList(),
                new ConcurrencyStats(0, 0), 0, 0);
        Path cdf = dir.resolve("none.png");
        assertFalse(Plots.writeCctCdf(Collections.singletonList(empty), cdf));
        assertFalse(Plots.writeBinBars(Collections.singletonList(RunSummary.of(empty)), 0, cdf));
        assertFalse(Files.exists(cdf));
    }

    @Test
    void reportFilesWritesEverything() throws IOException {
        List<SimulationResult> runs = Arrays.asList(Results.tenCoflows("fair", false, 2.0),
                Results.tenCoflows("aalo(epoch=1)", true, 1.0));
        List<RunSummary> sums = Arrays.asList(RunSummary.of(runs.get(0)), RunSummary.of(runs.get(1)));
        Path out = dir.resolve("new/sub");
        List<Path> files = ReportFiles.write(out, runs, sums, 0, SummaryJson.toJson("w", null, sums));
        List<String> names = new ArrayList<>();
        for (Path p : files) {
            names.add(p.getFileName().toString());
            assertTrue(Files.size(p) > 0, p.toString());
        }
        assertEquals(Arrays.asList("summary.json", "summary.csv", "coflows-fair.csv",
                "coflows-aalo_epoch=1_+courier.csv", "cct-cdf.png", "cct-by-bin.png"), names);
        assertEquals(2, new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("runs").size());
        assertEquals(11, Files.readAllLines(out.resolve("coflows-fair.csv")).size());
        assertPng(out.resolve("cct-cdf.png"), 900, 600);
        assertPng(out.resolve("cct-by-bin.png"), 1800, 600);
    }
}
