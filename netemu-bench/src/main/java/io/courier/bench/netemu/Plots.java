package io.courier.bench.netemu;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * PNG plots with XChart (as the simulator draws its plots): CCT, switch drops and retransmissions versus fetches
 * per reducer and versus reducers per host, stock vs Courier (and Courier with a coordinator when run; median of all runs of a point: the plots show what
 * was measured, validity is in the summary), and the CDF of coflow completion times of the mixed stream.
 * Stateless.
 */
final class Plots {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 500;

    private Plots() {
    }

    static void write(Path dir, List<RunRecord> runs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        for (String family : new String[] {"fetch-sweep", "reducer-sweep"}) {
            String xTitle = family.equals("fetch-sweep") ? "fetches per reducer (parallelcopies)"
                    : "reducers per host";
            sweep(dir, runs, family, "cct", "CCT (s)", xTitle, RunRecord::cct);
            sweep(dir, runs, family, "drops", "switch drops", xTitle, r -> r.switchDrops());
            sweep(dir, runs, family, "retrans", "TCP retransmitted segments", xTitle, r -> r.retransSegs());
        }
        cdf(dir, runs);
    }

    private static void sweep(Path dir, List<RunRecord> runs, String family, String name, String yTitle,
            String xTitle, ToDoubleFunction<RunRecord> f) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(yTitle + " vs " + xTitle
                + " (median of all runs)").xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        boolean any = false;
        for (String mode : Report.modes(runs)) {
            TreeMap<Double, List<Double>> byX = new TreeMap<>();
            for (RunRecord r : runs) {
                if (r.family().equals(family) && r.mode().equals(mode)) {
                    byX.computeIfAbsent(r.x(), k -> new ArrayList<>()).add(f.applyAsDouble(r));
                }
            }
            if (byX.isEmpty()) {
                continue;
            }
            List<Double> xs = new ArrayList<>(byX.keySet());
            List<Double> ys = new ArrayList<>();
            for (List<Double> v : byX.values()) {
                ys.add(Stats.minMedMax(v)[1]);
            }
            chart.addSeries(Report.displayName(mode), xs, ys);
            any = true;
        }
        if (any) {
            BitmapEncoder.saveBitmap(chart, dir.resolve(family + "-" + name + ".png").toString(),
                    BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static void cdf(Path dir, List<RunRecord> runs) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Mixed FB-trace stream: CDF of coflow completion times (all runs)")
                .xAxisTitle("coflow completion time (s)").yAxisTitle("fraction of coflows").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.0);
        // Fractions: two decimals, or XChart labels the ticks .0625, .125, ...
        chart.getStyler().setYAxisDecimalPattern("0.00");
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        chart.getStyler().setMarkerSize(0);
        boolean any = false;
        for (String mode : Report.modes(runs)) {
            List<Double> all = new ArrayList<>();
            for (RunRecord r : runs) {
                if (r.family().equals("mixed") && r.mode().equals(mode)) {
                    all.addAll(r.ccts());
                }
            }
            if (all.isEmpty()) {
                continue;
            }
            Collections.sort(all);
            List<Double> ys = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                ys.add((i + 1) / (double) all.size());
            }
            chart.addSeries(Report.displayName(mode), all, ys);
            any = true;
        }
        if (any) {
            BitmapEncoder.saveBitmap(chart, dir.resolve("mixed-cct-cdf.png").toString(),
                    BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
