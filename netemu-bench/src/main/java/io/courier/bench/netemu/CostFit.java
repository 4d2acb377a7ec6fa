package io.courier.bench.netemu;

import java.util.List;

/**
 * Least-squares split of a run's CPU into a fixed cost per segment and a cost per byte:
 * {@code cpuSec = perSegmentSec x segments + perByteSec x bytes}, no intercept (a run that moves nothing costs
 * nothing here). When the runs' segment count is the same (the segment-size sweep holds reducers, maps and hosts
 * fixed), the per-segment term also carries every per-run fixed cost (reducer set-up, idle threads over the
 * window): it is the fitted line's intercept spread over the segments. NaN coefficients when the points cannot
 * separate the two (fewer than two distinct bytes-per-segment ratios). Immutable.
 */
record CostFit(double perSegmentSec, double perByteSec, int points, double rmsResidualSec) {
    /** One run: its segments, bytes and CPU-seconds. */
    record Point(double segments, double bytes, double cpuSec) {
    }

    static CostFit of(List<Point> points) {
        double ss = 0;
        double sb = 0;
        double bb = 0;
        double sy = 0;
        double by = 0;
        for (Point p : points) {
            ss += p.segments() * p.segments();
            sb += p.segments() * p.bytes();
            bb += p.bytes() * p.bytes();
            sy += p.segments() * p.cpuSec();
            by += p.bytes() * p.cpuSec();
        }
        double det = ss * bb - sb * sb;
        // Collinear points (one bytes/segment ratio) leave the normal equations singular up to rounding.
        if (points.size() < 2 || !(det > 1e-9 * ss * bb)) {
            return new CostFit(Double.NaN, Double.NaN, points.size(), Double.NaN);
        }
        double a = (sy * bb - by * sb) / det;
        double b = (ss * by - sb * sy) / det;
        double sq = 0;
        for (Point p : points) {
            double r = p.cpuSec() - a * p.segments() - b * p.bytes();
            sq += r * r;
        }
        return new CostFit(a, b, points.size(), Math.sqrt(sq / points.size()));
    }

    double msPerSegment() {
        return perSegmentSec * 1e3;
    }

    double secPerGiB() {
        return perByteSec * (1L << 30);
    }
}
