package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CostFitTest {
    @Test
    void recoversFixedAndPerByteCostsOfASweepWithAFixedSegmentCount() {
        // 1200 segments per run; 2 ms per segment, 3 s per GiB; sizes 4 KB .. 1 MB.
        double perSeg = 0.002;
        double perByte = 3.0 / (1L << 30);
        List<CostFit.Point> pts = new java.util.ArrayList<>();
        for (long size : new long[] {4096, 65536, 1 << 20}) {
            double bytes = 1200.0 * size;
            pts.add(new CostFit.Point(1200, bytes, perSeg * 1200 + perByte * bytes));
        }
        CostFit f = CostFit.of(pts);
        assertEquals(2.0, f.msPerSegment(), 1e-9);
        assertEquals(3.0, f.secPerGiB(), 1e-9);
        assertEquals(0.0, f.rmsResidualSec(), 1e-9);
        assertEquals(3, f.points());
    }

    @Test
    void leastSquaresSplitsTheNoise() {
        // Two runs at each of two sizes, +-0.1 s around 1 s + 1 s/GiB x bytes over 1000 segments.
        double gib = 1L << 30;
        List<CostFit.Point> pts = List.of(new CostFit.Point(1000, 0, 0.9), new CostFit.Point(1000, 0, 1.1),
                new CostFit.Point(1000, gib, 1.9), new CostFit.Point(1000, gib, 2.1));
        CostFit f = CostFit.of(pts);
        assertEquals(1.0, f.msPerSegment(), 1e-9);
        assertEquals(1.0, f.secPerGiB(), 1e-9);
        assertEquals(0.1, f.rmsResidualSec(), 1e-9);
    }

    @Test
    void oneSegmentSizeCannotSeparateTheTwoCosts() {
        CostFit f = CostFit.of(List.of(new CostFit.Point(100, 409600, 1.0), new CostFit.Point(200, 819200, 2.1)));
        assertTrue(Double.isNaN(f.perSegmentSec()) && Double.isNaN(f.perByteSec()), f.toString());
        assertTrue(Double.isNaN(CostFit.of(List.of()).perByteSec()));
    }
}
