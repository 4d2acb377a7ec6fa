package io.courier.bench.netemu;

import java.util.List;

/**
 * A measured point: a family (small, bulk, fetch-sweep, reducer-sweep, segment-sweep, mixed), its x value in that
 * family (the parallel copies, reducers per host or segment bytes of a sweep, 0 otherwise), the coflows run together, and the repeats per
 * mode (0: the run's default). Immutable.
 */
record Scenario(String family, String label, double x, List<CoflowSpec> coflows, int repeats) {
    Scenario {
        coflows = List.copyOf(coflows);
        if (coflows.isEmpty()) {
            throw new IllegalArgumentException("scenario " + label + " has no coflows");
        }
    }
}
