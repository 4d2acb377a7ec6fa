package io.courier.simulator.report;

import io.courier.simulator.engine.CoflowResult;
import io.courier.simulator.engine.SimulationResult;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots of a set of runs, drawn with XChart off screen (headless): the CCT CDF per run on a log x axis,
 * and average and p99 CCT per coflow bin normalized to a baseline run.
 */
public final class Plots {
    /** Most points drawn per CDF curve; longer runs are sampled at evenly spaced ranks (the last always kept). */
    static final int MAX_CDF_POINTS = 2000;

    private static final int WIDTH = 900;
    private static final int HEIGHT = 600;

    private Plots() {
    }

    /**
     * The CCT CDF of every run: the fraction of coflows whose CCT is at most x, x in seconds on a log axis.
     * Coflows with CCT 0 cannot be placed on a log axis and are left out of the curve (not of the fraction).
     * Returns false (and writes nothing) when no run has a positive CCT.
     */
    public static boolean writeCctCdf(List<SimulationResult> runs, Path png) throws IOException {
        headless();
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("CCT CDF")
                .xAxisTitle("coflow completion time (s, log scale)").yAxisTitle("fraction of coflows").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.0);
        // Fractions: two decimals, or XChart prints every tick with sixteen.
        chart.getStyler().setYAxisDecimalPattern("0.00");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        chart.getStyler().setMarkerSize(0);
        List<String> names = uniqueNames(runNames(runs));
        boolean any = false;
        for (int r = 0; r < runs.size(); r++) {
            List<CoflowResult> cs = runs.get(r).coflows();
            double[] ccts = new double[cs.size()];
            for (int i = 0; i < ccts.length; i++) {
                ccts[i] = cs.get(i).cct();
            }
            Arrays.sort(ccts);
            int n = ccts.length;
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            int step = Math.max(1, (n + MAX_CDF_POINTS - 1) / MAX_CDF_POINTS);
            for (int i = 0; i < n; i++) {
                boolean keep = i % step == step - 1 || i == n - 1;
                if (keep && ccts[i] > 0) {
                    xs.add(ccts[i]);
                    ys.add((i + 1) / (double) n);
                }
            }
            if (!xs.isEmpty()) {
                chart.addSeries(names.get(r), xs, ys).setMarker(SeriesMarkers.NONE);
                any = true;
            }
        }
        if (!any) {
            return false;
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        return true;
    }

    /**
     * Grouped bars, one group per bin ("all" plus SN, LN, SW, LW) and one bar per run: the run's average
     * (left panel) and p99 (right panel) CCT divided by the baseline run's. Bins the baseline has no coflow
     * in are left out. Returns false (and writes nothing) when no bin is left.
     */
    public static boolean writeBinBars(List<RunSummary> runs, int baseline, Path png) throws IOException {
        headless();
        RunSummary base = runs.get(baseline);
        List<String> categories = new ArrayList<>();
        if (base.coflows() > 0) {
            categories.add("all");
        }
        for (CoflowBin b : CoflowBin.values()) {
            if (base.bin(b).coflows() > 0) {
                categories.add(b.name());
            }
        }
        if (categories.isEmpty()) {
            return false;
        }
        CategoryChart avg = binChart("average CCT per bin / " + base.runName(), "avg CCT relative to baseline");
        CategoryChart p99 = binChart("p99 CCT per bin / " + base.runName(), "p99 CCT relative to baseline");
        List<String> names = uniqueNames(summaryNames(runs));
        for (int r = 0; r < runs.size(); r++) {
            RunSummary s = runs.get(r);
            List<Double> a = new ArrayList<>();
            List<Double> p = new ArrayList<>();
            for (String c : categories) {
                if (c.equals("all")) {
                    a.add(ratio(s.avgCct(), base.avgCct()));
                    p.add(ratio(s.p99Cct(), base.p99Cct()));
                } else {
                    CoflowBin b = CoflowBin.valueOf(c);
                    a.add(ratio(s.bin(b).avgCct(), base.bin(b).avgCct()));
                    p.add(ratio(s.bin(b).p99Cct(), base.bin(b).p99Cct()));
                }
            }
            avg.addSeries(names.get(r), categories, a);
            p99.addSeries(names.get(r), categories, p);
        }
        BufferedImage left = BitmapEncoder.getBufferedImage(avg);
        BufferedImage right = BitmapEncoder.getBufferedImage(p99);
        BufferedImage both = new BufferedImage(left.getWidth() + right.getWidth(),
                Math.max(left.getHeight(), right.getHeight()), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = both.createGraphics();
        try {
            g.drawImage(left, 0, 0, null);
            g.drawImage(right, left.getWidth(), 0, null);
        } finally {
            g.dispose();
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            if (!ImageIO.write(both, "png", out)) {
                throw new IOException("no PNG writer available to write " + png);
            }
        }
        return true;
    }

    private static CategoryChart binChart(String title, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("coflow bin").yAxisTitle(yTitle).build();
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        return chart;
    }

    /** A bin the run has no value for draws as 0 (XChart has no gaps in category series). */
    private static double ratio(double v, double base) {
        double r = v / base;
        return Double.isNaN(r) || Double.isInfinite(r) ? 0.0 : r;
    }

    private static List<String> runNames(List<SimulationResult> runs) {
        List<String> names = new ArrayList<>();
        for (SimulationResult r : runs) {
            names.add(r.courier() ? r.scheduler() + "+courier" : r.scheduler());
        }
        return names;
    }

    private static List<String> summaryNames(List<RunSummary> runs) {
        List<String> names = new ArrayList<>();
        for (RunSummary r : runs) {
            names.add(r.runName());
        }
        return names;
    }

    /** XChart rejects two series with one name; repeated runs get " #2", " #3", … */
    static List<String> uniqueNames(List<String> names) {
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (String n : names) {
            String u = n;
            for (int k = 2; !seen.add(u); k++) {
                u = n + " #" + k;
            }
            out.add(u);
        }
        return out;
    }

    /** Charts are drawn into images; without this a JVM on a machine with no display may try to open one. */
    private static void headless() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }
}
