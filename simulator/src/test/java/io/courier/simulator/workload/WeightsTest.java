package io.courier.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WeightsTest {
    private static List<Double> weights(Workload w) {
        List<Double> out = new ArrayList<>();
        for (WorkloadCoflow c : w.coflows()) {
            out.add(c.weight());
        }
        return out;
    }

    @Test
    void fixedWeights() {
        Workload w = WorkloadFixtures.oneFlowCoflows(5);
        for (double x : weights(Weights.parse("1").apply(w))) {
            assertEquals(1.0, x, 0);
        }
        for (double x : weights(Weights.parse("fixed:2.5").apply(w))) {
            assertEquals(2.5, x, 0);
        }
        for (double x : weights(Weights.parse("3").apply(w))) {
            assertEquals(3.0, x, 0);
        }
        assertTrue(Weights.parse("fixed:2.5").isFixed());
        assertEquals("fixed:2.5", Weights.parse(" fixed:2.5 ").toString());
    }

    @Test
    void uniformIntegersCoverTheInclusiveRangeEvenly() {
        int n = 50000;
        List<Double> ws = weights(Weights.parse("uniform:1-5").apply(WorkloadFixtures.oneFlowCoflows(n)));
        int[] count = new int[6];
        for (double x : ws) {
            assertEquals(Math.rint(x), x, 0);
            assertTrue(x >= 1 && x <= 5, () -> "weight " + x);
            count[(int) x]++;
        }
        for (int v = 1; v <= 5; v++) {
            // Expected 10000, sd 89: 5% is 5.6 sd.
            assertEquals(10000, count[v], 500, "weight " + v);
        }
        for (double x : weights(Weights.parse("uniform:4-4").apply(WorkloadFixtures.oneFlowCoflows(10)))) {
            assertEquals(4.0, x, 0);
        }
    }

    @Test
    void uniformRealsStayInTheRangeWithTheRightMean() {
        int n = 50000;
        double sum = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double x : weights(Weights.parse("uniform-real:0.5-2").apply(WorkloadFixtures.oneFlowCoflows(n)))) {
            assertTrue(x >= 0.5 && x < 2, () -> "weight " + x);
            sum += x;
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        assertEquals(1.25, sum / n, 0.01); // sd of the mean 0.433/sqrt(50000) = 0.0019
        assertTrue(min < 0.51 && max > 1.99, min + " " + max);
    }

    @Test
    void sameSeedSameWeightsAndTheSeedCanBeGivenInTheSpec() {
        Workload w = WorkloadFixtures.oneFlowCoflows(200);
        List<Double> a = weights(Weights.parse("uniform:1-5").apply(w));
        assertEquals(a, weights(Weights.parse("uniform:1-5").apply(w)));
        assertEquals(a, weights(Weights.parse("uniform:1-5:seed=1").apply(w)), "default seed is 1");
        List<Double> seven = weights(Weights.parse("uniform:1-5:seed=7").apply(w));
        assertNotEquals(a, seven);
        assertEquals(seven, weights(Weights.parse("uniform:1-5").withSeed(7).apply(w)));
        assertEquals(7, Weights.parse("uniform:1-5:seed=3").withSeed(7).seed());
        assertEquals("uniform:1-5:seed=7", Weights.parse("uniform:1-5:seed=3").withSeed(7).toString());
        Workload weighted = Weights.parse("uniform:1-5").apply(w);
        assertEquals(w.flowCount(), weighted.flowCount());
        assertEquals(w.coflows().get(9).arrival(), weighted.coflows().get(9).arrival(), 0);
    }

    @Test
    void invalidSpecsAreRejectedNamingTheWeights() {
        String[][] cases = {
            {"", "not a plain"},
            {"0", "> 0"},
            {"-1", "not a plain"},
            {"NaN", "not a plain"},
            {"fixed:0", "> 0"},
            {"fixed:x", "not a plain"},
            {"uniform:0-5", "[1, "},
            {"uniform:5-1", "empty range"},
            {"uniform:1.5-3", "not an integer"},
            {"uniform:3", "needs a range"},
            {"uniform-real:0-1", "> 0"},
            {"uniform-real:2-1", "empty range"},
            {"gauss:1-2", "unknown weight spec"},
            {"uniform:1-5:seed=x", "not an integer"},
            {"uniform:1-5:foo=1", "unknown key"},
            {"uniform:1-5:", "seed=N"},
        };
        for (String[] c : cases) {
            WorkloadSpecException e = assertThrows(WorkloadSpecException.class, () -> Weights.parse(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains("weights"),
                    c[0] + " -> " + e.getMessage());
        }
    }
}
