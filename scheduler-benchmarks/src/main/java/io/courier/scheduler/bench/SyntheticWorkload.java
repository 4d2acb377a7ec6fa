package io.courier.scheduler.bench;

import io.courier.simulator.trace.TraceCoflow;
import io.courier.simulator.trace.TraceReducer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A seeded stand-in for the FB trace's busiest instant, for machines without the trace: 100 active
 * coflows on 150 racks with 25 000 to 35 000 flows.
 *
 * <ul>
 *   <li>Widths are heavy-tailed: half the coflows are narrow (mappers and reducers each log-uniform in
 *       [1, 8]), half are wide (each log-uniform in [1, 120]); racks are distinct within a side. All
 *       widths are redrawn until the total flow count lies in [{@value #MIN_FLOWS}, {@value #MAX_FLOWS}].</li>
 *   <li>Reducer volumes are Pareto (shape 1.1, minimum 1 MB, capped at 10<sup>6</sup> MB), rounded up to
 *       whole MB.</li>
 *   <li>Arrivals are uniform over the 600 s before the instant and each coflow's elapsed fraction is
 *       uniform in [0, 1), except the last coflow, which arrives at the instant itself (elapsed 0).</li>
 * </ul>
 */
public final class SyntheticWorkload {
    /** Racks (ports) of the synthetic cluster, as in the FB trace. */
    public static final int RACKS = 150;
    /** Active coflows at the snapshot instant. */
    public static final int COFLOWS = 100;
    /** The snapshot instant, in seconds; arrivals lie in [0, NOW). */
    public static final double NOW = 600.0;
    /** Bounds on the total number of flows (mappers × reducers summed over the coflows). */
    public static final long MIN_FLOWS = 25_000;
    public static final long MAX_FLOWS = 35_000;

    private final List<ActiveCoflow> active;

    private SyntheticWorkload(List<ActiveCoflow> active) {
        this.active = active;
    }

    public static SyntheticWorkload generate(long seed) {
        Random random = new Random(seed);
        long[] arrivals = new long[COFLOWS];
        for (int i = 0; i < COFLOWS - 1; i++) {
            arrivals[i] = (long) (random.nextDouble() * NOW * 1000);
        }
        arrivals[COFLOWS - 1] = (long) (NOW * 1000); // the instant is an arrival, as in the trace snapshot
        Arrays.sort(arrivals);
        int[] mapperCount = new int[COFLOWS];
        int[] reducerCount = new int[COFLOWS];
        long flows;
        do {
            // Heavy tails make the total swing by 3x between seeds; redraw until it is FB-snapshot-like.
            flows = 0;
            for (int i = 0; i < COFLOWS; i++) {
                int maxWidth = random.nextBoolean() ? 8 : 120;
                mapperCount[i] = logUniform(random, maxWidth);
                reducerCount[i] = logUniform(random, maxWidth);
                flows += (long) mapperCount[i] * reducerCount[i];
            }
        } while (flows < MIN_FLOWS || flows > MAX_FLOWS);
        List<ActiveCoflow> active = new ArrayList<>(COFLOWS);
        for (int i = 0; i < COFLOWS; i++) {
            List<Integer> mappers = distinctRacks(random, mapperCount[i]);
            List<TraceReducer> reducers = new ArrayList<>(reducerCount[i]);
            for (int rack : distinctRacks(random, reducerCount[i])) {
                reducers.add(new TraceReducer(rack, paretoMegabytes(random)));
            }
            TraceCoflow c = new TraceCoflow(i + 1, arrivals[i], mappers, reducers);
            active.add(new ActiveCoflow(c, i == COFLOWS - 1 ? 0.0 : random.nextDouble()));
        }
        return new SyntheticWorkload(Collections.unmodifiableList(active));
    }

    /** The active coflows, ordered by arrival. */
    public List<ActiveCoflow> active() {
        return active;
    }

    /** An integer in [1, max], log-uniformly distributed: small values are common, large ones rare. */
    private static int logUniform(Random random, int max) {
        return (int) Math.min(max, Math.floor(Math.exp(random.nextDouble() * Math.log(max + 1.0))));
    }

    private static double paretoMegabytes(Random random) {
        double u = 1.0 - random.nextDouble(); // in (0, 1]
        return Math.ceil(Math.min(1e6, Math.pow(u, -1 / 1.1)));
    }

    /** {@code n} distinct racks in random order (a partial Fisher-Yates shuffle). */
    private static List<Integer> distinctRacks(Random random, int n) {
        int[] racks = new int[RACKS];
        for (int r = 0; r < RACKS; r++) {
            racks[r] = r;
        }
        List<Integer> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            int j = k + random.nextInt(RACKS - k);
            int tmp = racks[k];
            racks[k] = racks[j];
            racks[j] = tmp;
            out.add(racks[k]);
        }
        return out;
    }
}
