package io.courier.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PercentilesTest {
    @Test
    void nearestRankOnTenValues() {
        double[] v = {10, 3, 7, 1, 9, 2, 8, 4, 6, 5};
        assertEquals(1.0, Percentiles.of(v, 0));
        assertEquals(1.0, Percentiles.of(v, 10));
        assertEquals(2.0, Percentiles.of(v, 10.5));
        assertEquals(5.0, Percentiles.of(v, 50));
        assertEquals(9.0, Percentiles.of(v, 90));
        assertEquals(10.0, Percentiles.of(v, 99));
        assertEquals(10.0, Percentiles.of(v, 100));
        assertEquals(10.0, v[0], "input is not modified");
    }

    @Test
    void p99OfTwoHundredValuesIsRank198() {
        double[] v = new double[200];
        for (int i = 0; i < v.length; i++) {
            v[i] = 200 - i;
        }
        assertEquals(198.0, Percentiles.of(v, 99));
        assertEquals(100.0, Percentiles.of(v, 50));
        assertEquals(180.0, Percentiles.of(v, 90));
    }

    @Test
    void singleAndEmpty() {
        assertEquals(4.5, Percentiles.of(new double[] {4.5}, 99));
        assertTrue(Double.isNaN(Percentiles.of(new double[0], 50)));
    }

    @Test
    void rejectsPercentilesOutsideRange() {
        assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new double[] {1}, 101));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new double[] {1}, -1));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new double[] {1}, Double.NaN));
    }
}
