package io.courier.scheduler.properties;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.primitives.MaxMin;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;

/**
 * The fast {@link MaxMin} (heap of saturation levels) agrees with the spec's literal progressive-filling
 * loop (SCHEDULERS.md §0.5 P1, lines 1-9) on random states and demand caps, and its result is max-min fair:
 * every flow below its demand has a full resource on which no flow gets more than it does.
 */
class MaxMinPropertyTest {

    @Provide
    Arbitrary<GeneratedState> states() {
        return RandomStates.states();
    }

    /**
     * @param demandFractions per-flow demand as a fraction of the largest capacity (cycled over the flows);
     *                        values above 1 act as "no cap", and an empty list means demand = ∞
     */
    @Property(tries = 200)
    void fastMaxMinEqualsTheSpecLoop(@ForAll("states") GeneratedState g,
            @ForAll @Size(max = 12) List<@DoubleRange(min = 0.0, max = 2.0) @Scale(4) Double> demandFractions) {
        ClusterState s = g.state();
        int[] flows = s.unfinishedFlows();
        double maxCap = s.network().maxCapacity();
        double[] demand = null;
        if (!demandFractions.isEmpty()) {
            demand = new double[s.flowCount()];
            for (int k = 0; k < flows.length; k++) {
                demand[flows[k]] = demandFractions.get(k % demandFractions.size()) * maxCap;
            }
        }
        double[] fastResidual = s.residualCapacities(true);
        double[] fast = new double[s.flowCount()];
        MaxMin.fill(s, flows, fastResidual, demand, fast);
        double[] specResidual = s.residualCapacities(true);
        double[] spec = specLoop(s, flows, specResidual, demand);

        double tol = 1e-7 * maxCap;
        for (int f : flows) {
            if (Math.abs(fast[f] - spec[f]) > tol) {
                throw new AssertionError("MaxMin gives " + s.flow(f) + " " + fast[f] + ", the spec loop " + spec[f]);
            }
        }
        for (int p = 0; p < fastResidual.length; p++) {
            if (Math.abs(fastResidual[p] - specResidual[p]) > tol) {
                throw new AssertionError("residual of " + s.network().resourceName(p) + ": MaxMin " + fastResidual[p]
                        + ", spec loop " + specResidual[p]);
            }
        }
        checkMaxMinFair(s, flows, fast, fastResidual, demand, tol);
    }

    /** The literal loop of P1: raise all active flows by the same δ until a resource or a demand runs out. */
    private static double[] specLoop(ClusterState s, int[] flows, double[] r, double[] demand) {
        double eps = s.network().rateEpsilon();
        double[] x = new double[s.flowCount()];
        boolean[] active = new boolean[s.flowCount()];
        int left = 0;
        for (int f : flows) {
            active[f] = fits(s, f, r, eps) && dem(demand, f) > eps;
            left += active[f] ? 1 : 0;
        }
        while (left > 0) {
            int[] n = new int[r.length];
            for (int f : flows) {
                if (active[f]) {
                    for (int p : s.resourcesOf(f)) {
                        n[p]++;
                    }
                }
            }
            double delta = Double.POSITIVE_INFINITY;
            for (int p = 0; p < r.length; p++) {
                if (n[p] > 0) {
                    delta = Math.min(delta, r[p] / n[p]);
                }
            }
            for (int f : flows) {
                if (active[f]) {
                    delta = Math.min(delta, dem(demand, f) - x[f]);
                }
            }
            for (int f : flows) {
                if (active[f]) {
                    x[f] += delta;
                }
            }
            for (int p = 0; p < r.length; p++) {
                r[p] = Math.max(0.0, r[p] - delta * n[p]);
            }
            left = 0;
            for (int f : flows) {
                if (active[f]) {
                    active[f] = fits(s, f, r, eps) && dem(demand, f) - x[f] > eps;
                    left += active[f] ? 1 : 0;
                }
            }
        }
        return x;
    }

    private static boolean fits(ClusterState s, int f, double[] r, double eps) {
        for (int p : s.resourcesOf(f)) {
            if (r[p] <= eps) {
                return false;
            }
        }
        return true;
    }

    private static double dem(double[] demand, int f) {
        return demand == null ? Double.POSITIVE_INFINITY : demand[f];
    }

    /** Every flow below its demand has a full resource where it gets at least as much as any other flow. */
    private static void checkMaxMinFair(ClusterState s, int[] flows, double[] x, double[] residual, double[] demand,
            double tol) {
        for (int f : flows) {
            if (x[f] >= dem(demand, f) - tol) {
                continue;
            }
            boolean bottlenecked = false;
            for (int p : s.resourcesOf(f)) {
                if (residual[p] > tol) {
                    continue;
                }
                boolean largest = true;
                for (int g : flows) {
                    for (int q : s.resourcesOf(g)) {
                        if (q == p && x[g] > x[f] + tol) {
                            largest = false;
                        }
                    }
                }
                bottlenecked |= largest;
            }
            if (!bottlenecked) {
                throw new AssertionError("not max-min fair: " + s.flow(f) + " gets " + x[f]
                        + " but has no full resource on which it is among the largest");
            }
        }
    }
}
