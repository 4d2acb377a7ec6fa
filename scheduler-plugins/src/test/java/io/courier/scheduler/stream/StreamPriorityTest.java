package io.courier.scheduler.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.CoflowId;
import org.junit.jupiter.api.Test;

/** T-STREAM-1 (SCHEDULERS.md §7): K = 4, τ = 10 MB, α = β = 1, natural log, sizes in MB. */
class StreamPriorityTest {
    private static final double MB = 1048576.0;
    private static final StreamPriority DEFAULT = StreamPriority.defaults();

    static SubCoflowObservation obs(double xMb, int n, int nFin, double sMb, int m) {
        return SubCoflowObservation.builder(CoflowId.of(7)).bytesReceived(xMb * MB).flows(n, nFin)
                .relayedBytes(sMb * MB).subCoflows(m).build();
    }

    private static void assertRel(double expected, double actual, String what) {
        assertEquals(expected, actual, 1e-9 * Math.max(1.0, Math.abs(expected)), what);
    }

    private static StreamPriority.Evaluation row(double x, int n, int nFin, double s, int m, double h, double w,
            double ratio, int p) {
        StreamPriority.Evaluation e = DEFAULT.evaluate(obs(x, n, nFin, s, m), 0);
        assertRel(h, e.condition(), "H");
        assertRel(w, e.weight(), "W");
        assertRel(ratio, e.ratio(), "ratio");
        assertEquals(p, e.level(), "P");
        assertRel(10.0, e.tauMb(), "tau");
        return e;
    }

    @Test
    void tStream1aNothingReceivedIsHighest() {
        StreamPriority.Evaluation e = row(0, 10, 0, 0, 1, 0.0, 1.0, 1.0, 0);
        assertEquals(0.0, e.weightedBytesMb());
        assertEquals(Double.POSITIVE_INFINITY, e.uncappedRatio());
    }

    @Test
    void tStream1bRatioCappedAtOne() {
        StreamPriority.Evaluation e = row(15, 10, 0, 0, 1, 20.0 / 3, 1.0, 1.0, 0);
        assertRel(10.0 / 9, e.uncappedRatio(), "uncapped ratio 1.111");
    }

    @Test
    void tStream1c() {
        // 4·0.75 = 3 exactly: the boundary stays in class 1.
        row(20, 10, 0, 0, 1, 5.0, 1.0, 0.75, 1);
    }

    @Test
    void tStream1d() {
        row(30, 10, 0, 0, 1, 10.0 / 3, 1.0, 4.0 / 9, 2);
    }

    @Test
    void tStream1e() {
        row(60, 10, 0, 0, 1, 5.0 / 3, 1.0, 7.0 / 36, 3);
    }

    @Test
    void tStream1fNearCompletionIsPromotedByH() {
        row(30, 10, 5, 0, 1, 25.0 / 3, 1.0, 11.0 / 18, 1);
    }

    @Test
    void tStream1gInformationRelay() {
        StreamPriority.Evaluation e = row(30, 10, 0, 30, 1, 10.0 / 3, 1.0, 2.0 / 9, 3);
        assertRel(60.0, e.weightedBytesMb(), "X = beta*S + x");
    }

    @Test
    void tStream1hWeightedPriority() {
        StreamPriority.Evaluation e = row(30, 10, 0, 0, 3, 10.0 / 3, Math.log(4), 4.0 / (9 * Math.log(4)), 2);
        assertRel(1.3862943611198906, e.weight(), "W = ln 4");
        assertEquals(0.3206, e.ratio(), 5e-5);
    }

    @Test
    void betaZeroIgnoresRelayedBytes() {
        StreamPriority noRelay = new StreamPriority(4, 10, 1, 0, TauMode.CONSTANT);
        assertEquals(2, noRelay.level(obs(30, 10, 0, 30, 1), 0)); // row g without IR is row d
    }

    @Test
    void relayedBytesAloneDemoteAnEmptySubCoflow() {
        // x = 0: n/x is taken as 0, so H = 0 and ratio = τ/(β·S) = 10/60.
        StreamPriority.Evaluation e = DEFAULT.evaluate(obs(0, 10, 0, 60, 1), 0);
        assertRel(0.0, e.condition(), "H");
        assertRel(1.0 / 6, e.ratio(), "ratio");
        assertEquals(3, e.level());
    }

    @Test
    void currentLevelTauVariantScalesTauByTenPerLevel() {
        StreamPriority variant = new StreamPriority(4, 10, 1, 1, TauMode.CURRENT_LEVEL);
        SubCoflowObservation o = obs(300, 10, 0, 0, 1);
        StreamPriority.Evaluation atLevel1 = variant.evaluate(o, 1);
        assertRel(100.0, atLevel1.tauMb(), "tau_1");
        assertRel(10.0 / 3, atLevel1.condition(), "H = 100*(10/300)");
        assertRel(31.0 / 90, atLevel1.ratio(), "ratio = (100 + 10/3)/300");
        assertEquals(2, atLevel1.level());
        // At level 0 the variant is the constant formula: ratio = (10 + 1/3)/300.
        assertRel(31.0 / 900, variant.evaluate(o, 0).ratio(), "ratio at level 0");
        assertEquals(3, variant.level(o, 0));
        assertEquals(3, DEFAULT.level(o, 1));
    }

    @Test
    void levelStaysInRangeForAnyNumberOfQueues() {
        StreamPriority one = new StreamPriority(1, 10, 1, 1, TauMode.CONSTANT);
        assertEquals(0, one.level(obs(1e9, 1, 0, 0, 1), 0));
        StreamPriority eight = new StreamPriority(8, 10, 1, 1, TauMode.CONSTANT);
        assertEquals(7, eight.level(obs(1e12, 1, 0, 0, 1), 0));
        // x = 30, n = 10: ratio 4/9, 8·4/9 = 3.56 -> ceil 4 -> P = 4.
        assertEquals(4, eight.level(obs(30, 10, 0, 0, 1), 0));
    }

    @Test
    void badFormulaParametersAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new StreamPriority(0, 10, 1, 1, TauMode.CONSTANT));
        assertThrows(IllegalArgumentException.class, () -> new StreamPriority(4, 0, 1, 1, TauMode.CONSTANT));
        assertThrows(IllegalArgumentException.class,
                () -> new StreamPriority(4, Double.NaN, 1, 1, TauMode.CONSTANT));
        assertThrows(IllegalArgumentException.class, () -> new StreamPriority(4, 10, 0, 1, TauMode.CONSTANT));
        assertThrows(IllegalArgumentException.class, () -> new StreamPriority(4, 10, 1, -1, TauMode.CONSTANT));
        assertThrows(IllegalArgumentException.class, () -> new StreamPriority(4, 10, 1, 1, null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DEFAULT.evaluate(obs(1, 1, 0, 0, 1), 4));
        assertTrue(e.getMessage().contains("coflow-7"), e.getMessage());
    }

    @Test
    void inconsistentObservationsAreRejectedNamingTheCoflow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> obs(1, 2, 3, 0, 1));
        assertTrue(e.getMessage().contains("coflow-7") && e.getMessage().contains("finished"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> obs(1, 0, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> obs(-1, 1, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> obs(1, 1, 0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> obs(1, 1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> SubCoflowObservation.builder(CoflowId.of(1)).flows(1, 0).build()); // x never set
    }
}
