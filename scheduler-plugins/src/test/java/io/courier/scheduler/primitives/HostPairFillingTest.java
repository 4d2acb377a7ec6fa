package io.courier.scheduler.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.testing.Scenario;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The host-pair filling gives {@link MaxMin}'s per-flow result bit for bit (the engine's reference outputs compare
 * exact doubles): random big switches with many flows per host pair, residuals with exact ties (equal capacities
 * saturating at the same level), ports already full, and flow subsets in shuffled order.
 */
class HostPairFillingTest {

    @Test
    void handCaseThroughThePairs() {
        // Hosts a, b, x with capacity 1, x's ports 0.6; three a→x flows and two b→x: down(x) saturates at 0.12
        // for all five; up(a) and up(b) keep 0.64 and 0.76.
        Scenario sc = Scenario.unitCapacity().hosts("a", "b", "x").hostCapacity("x", 0.6).coflow("C", 0)
                .flow("f1", "a", "x", 5).flow("f2", "a", "x", 5).flow("f3", "b", "x", 5).flow("f4", "a", "x", 5)
                .flow("f5", "b", "x", 5).build();
        Hand h = Hand.of(sc);
        int[] flows = h.flows("f1", "f2", "f3", "f4", "f5");
        assertTrue(HostPairFilling.applies(h.state().network(), flows.length));
        double[] residual = h.fullCapacity();
        double[] rate = h.noRates();
        assertEquals(5, MaxMin.fill(h.state(), flows, residual, null, rate));
        for (int f : flows) {
            assertEquals(0.12, rate[f], Hand.EPS);
        }
        assertEquals(0.64, residual[h.up("a")], Hand.EPS);
        assertEquals(0.76, residual[h.up("b")], Hand.EPS);
        assertEquals(0.0, residual[h.down("x")], Hand.EPS);
    }

    @Test
    void sameBitsAsThePerFlowFillingOnRandomBigSwitches() {
        Random rnd = new Random(20261128L);
        int compared = 0;
        for (int round = 0; round < 400; round++) {
            int hosts = 2 + rnd.nextInt(9);
            int flowCount = hosts * hosts / 4 + rnd.nextInt(4 * hosts * hosts);
            ClusterState state = randomState(rnd, hosts, flowCount);
            int[] flows = shuffledSubset(rnd, state.unfinishedFlows());
            double[] residual = randomResiduals(rnd, state);
            if (!HostPairFilling.applies(state.network(), flows.length)) {
                continue;
            }
            compared++;
            double[] pairResidual = residual.clone();
            double[] pairRate = new double[state.flowCount()];
            double[] flowResidual = residual.clone();
            double[] flowRate = new double[state.flowCount()];
            // Rates add to what is there already, as they do under priority classes.
            for (int f = 0; f < pairRate.length; f++) {
                pairRate[f] = flowRate[f] = rnd.nextInt(3) == 0 ? rnd.nextDouble() : 0.0;
            }
            int pairGiven = HostPairFilling.fill(state, flows, pairResidual, pairRate);
            int flowGiven = MaxMin.fillPerFlow(state, flows, flowResidual, null, flowRate);
            String where = "round " + round + " (" + hosts + " hosts, " + flows.length + " flows)";
            assertEquals(flowGiven, pairGiven, where);
            assertArrayEquals(flowRate, pairRate, 0.0, where);
            assertArrayEquals(flowResidual, pairResidual, 0.0, where);
        }
        assertTrue(compared > 300, "too few states where the pair filling applies: " + compared);
    }

    @Test
    void notForLinksOrFewFlows() {
        Scenario withLink = Scenario.unitCapacity().hosts("a", "b").link("l", 1).coflow("C", 0)
                .flowVia("f1", "a", "b", 1, "l").flow("f2", "a", "b", 1).flow("f3", "b", "a", 1)
                .flow("f4", "b", "a", 1).build();
        assertFalse(HostPairFilling.applies(Hand.of(withLink).state().network(), 100));
        Scenario plain = Scenario.unitCapacity().hosts("a", "b", "c").coflow("C", 0).flow("f1", "a", "b", 1).build();
        assertFalse(HostPairFilling.applies(Hand.of(plain).state().network(), 2));
        assertTrue(HostPairFilling.applies(Hand.of(plain).state().network(), 3));
    }

    private static ClusterState randomState(Random rnd, int hosts, int flowCount) {
        String[] names = new String[hosts];
        for (int h = 0; h < hosts; h++) {
            names[h] = "h" + h;
        }
        Scenario.Builder b = Scenario.unitCapacity().hosts(names);
        // Capacities from a few values, so that ports often saturate at exactly the same level.
        double[] caps = {1.0, 0.5, 2.0, 0.3};
        for (int h = 0; h < hosts; h++) {
            b.hostCapacity(names[h], caps[rnd.nextInt(caps.length)]);
        }
        int coflow = 0;
        b.coflow("C0", 0);
        for (int i = 0; i < flowCount; i++) {
            if (rnd.nextInt(20) == 0) {
                b.coflow("C" + ++coflow, 0);
            }
            // Skewed endpoints: a few hot pairs with many flows, as in a MapReduce shuffle.
            int s = rnd.nextBoolean() ? 0 : rnd.nextInt(hosts);
            int d = rnd.nextBoolean() ? hosts - 1 : rnd.nextInt(hosts);
            b.flow("f" + i, names[s], names[d], 1 + rnd.nextInt(5));
        }
        return Hand.of(b.build()).state();
    }

    private static int[] shuffledSubset(Random rnd, int[] all) {
        int[] copy = all.clone();
        for (int i = copy.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = copy[i];
            copy[i] = copy[j];
            copy[j] = t;
        }
        int keep = copy.length - rnd.nextInt(Math.max(1, copy.length / 4));
        return Arrays.copyOf(copy, keep);
    }

    private static double[] randomResiduals(Random rnd, ClusterState state) {
        double[] residual = state.residualCapacities(false);
        for (int p = 0; p < residual.length; p++) {
            switch (rnd.nextInt(6)) {
                case 0:
                    residual[p] = 0.0;                              // full
                    break;
                case 1:
                    residual[p] = state.network().rateEpsilon() / 2; // full within EPS
                    break;
                case 2:
                    residual[p] = residual[p] * rnd.nextDouble();   // partly used by a higher class
                    break;
                default:
                    break;                                          // untouched, ties with equal capacities
            }
        }
        return residual;
    }
}
