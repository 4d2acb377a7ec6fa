package io.courier.bench.netemu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The benchmark's scenarios (the Courier paper's §5.1 on real TCP): one small and one bulk shuffle, the sweep of
 * fetches per reducer (20 reducers per host; Hadoop's parallelcopies), the sweep of reducers per host (5 fetches
 * each), the sweep of segment sizes (20 reducers x 5 fetches; it separates fixed from per-byte CPU), and a stream of
 * mixed-size coflows drawn from the FB trace. Stateless.
 */
final class Plans {
    static final long SMALL_BYTES = 32 * 1024;
    static final long BULK_BYTES = 128 * 1024;
    static final int REDUCERS = 20;
    static final int FETCHES = 5;
    /** Every family {@link #build} knows, in the order it runs them (whatever order they are named in). */
    static final List<String> FAMILIES = List.of("small", "bulk", "fetch-sweep", "reducer-sweep", "segment-sweep",
            "mixed");
    /** Segment sizes (bytes per reducer x host, one map per host) of the segment-size sweep: full and quick plan. */
    static final long[] SEGMENT_SIZES = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20};
    static final long[] QUICK_SEGMENT_SIZES = {4 << 10, 64 << 10, 1 << 20};

    private Plans() {
    }

    /**
     * The families to run: {@code requested} as given, or all of them when null (both plans).
     *
     * @throws IllegalArgumentException naming a family no plan knows, or when none is named
     */
    static List<String> families(List<String> requested) {
        if (requested == null) {
            return FAMILIES;
        }
        for (String f : requested) {
            if (!FAMILIES.contains(f)) {
                throw new IllegalArgumentException("unknown family '" + f + "' in --families (known: "
                        + String.join(", ", FAMILIES) + ")");
            }
        }
        if (requested.isEmpty()) {
            throw new IllegalArgumentException("--families names no family");
        }
        return requested;
    }

    /**
     * The scenarios of the given families. The quick plan (bin/courier bench netemu --quick, under 10 minutes)
     * runs the sweeps at three (fetches, segment sizes) and two (reducers) points with 2 repeats and a shorter mixed stream (coflows capped at 256 KB
     * per reducer x host, 2 repeats); the full plan runs every point with the run's repeats.
     */
    static List<Scenario> build(boolean quick, int hosts, long rateBitsPerSec, Path trace, int mixedCoflows,
            List<String> families) throws IOException {
        int sweepRepeats = quick ? 2 : 0;
        List<Scenario> s = new ArrayList<>();
        if (families.contains("small")) {
            s.add(single("small", "small 32 KB x 20 reducers x 5 fetches", 0, REDUCERS, SMALL_BYTES, FETCHES, 0));
        }
        if (families.contains("bulk")) {
            s.add(single("bulk", "bulk 128 KB x 20 reducers x 5 fetches", 0, REDUCERS, BULK_BYTES, FETCHES, 0));
        }
        if (families.contains("fetch-sweep")) {
            int[] fs = quick ? new int[] {1, 3, 8} : range(1, 15, 1);
            for (int f : fs) {
                s.add(single("fetch-sweep", "fetches/reducer " + f, f, REDUCERS, SMALL_BYTES, f, sweepRepeats));
            }
        }
        if (families.contains("reducer-sweep")) {
            int[] rs = quick ? new int[] {10, 40} : range(10, 60, 10);
            for (int r : rs) {
                s.add(single("reducer-sweep", "reducers/host " + r, r, r, SMALL_BYTES, FETCHES, sweepRepeats));
            }
        }
        if (families.contains("segment-sweep")) {
            for (long b : quick ? QUICK_SEGMENT_SIZES : SEGMENT_SIZES) {
                s.add(single("segment-sweep", "segment " + (b >> 10) + " KB per reducer x host", b, REDUCERS, b,
                        FETCHES, sweepRepeats));
            }
        }
        if (families.contains("mixed")) {
            if (trace == null || !Files.isRegularFile(trace)) {
                System.err.println("netemu: mixed coflow stream skipped: FB trace not found at " + trace
                        + " (pass --trace; the repository expects ../shared/data/FB2010-1Hr-150-0.txt)");
            } else {
                long cap = quick ? 256 * 1024 : 1 << 20;
                s.add(new Scenario("mixed", "mixed stream of " + mixedCoflows + " FB-trace coflows", 0,
                        mixed(FbTrace.read(trace), mixedCoflows, hosts, rateBitsPerSec, 7, cap), quick ? 2 : 0));
            }
        }
        return s;
    }

    private static Scenario single(String family, String label, double x, int reducers, long bytes, int fetches,
            int repeats) {
        return new Scenario(family, label, x, List.of(new CoflowSpec(reducers, 1, bytes, fetches, 0)), repeats);
    }

    static int[] range(int from, int to, int step) {
        List<Integer> l = new ArrayList<>();
        for (int v = from; v <= to; v += step) {
            l.add(v);
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * {@code count} coflows sampled (seeded, in trace order) from the trace. Sizes: a coflow's bytes per
     * reducer x host are its trace megabytes scaled so that the median sampled coflow gets {@link #SMALL_BYTES},
     * clamped to 4 KB..{@code maxBytes} (the trace spans six orders of magnitude; the emulated links are 20x
     * slower than the paper's). Reducers per host: the trace's reducers spread over the hosts, 1..10. Arrivals: the trace's
     * order and relative gaps, compressed so that the stream offers about half of the hosts' link capacity.
     */
    static List<CoflowSpec> mixed(FbTrace trace, int count, int hosts, long rateBitsPerSec, long seed,
            long maxBytes) {
        List<FbTrace.Entry> all = new ArrayList<>();
        for (FbTrace.Entry e : trace.coflows()) {
            if (e.totalMb() > 0) {
                all.add(e);
            }
        }
        if (all.size() < count) {
            throw new IllegalArgumentException("trace has " + all.size() + " coflows, " + count + " requested");
        }
        Random rnd = new Random(seed);
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            idx.add(i);
        }
        java.util.Collections.shuffle(idx, rnd);
        List<Integer> pick = new ArrayList<>(idx.subList(0, count));
        java.util.Collections.sort(pick);
        double[] perReducerHostMb = new double[count];
        int[] reducers = new int[count];
        for (int i = 0; i < count; i++) {
            FbTrace.Entry e = all.get(pick.get(i));
            reducers[i] = Math.max(1, Math.min(10, Math.round(e.reducers() / (float) hosts)));
            perReducerHostMb[i] = e.totalMb() / (reducers[i] * (double) hosts * hosts);
        }
        double[] sorted = perReducerHostMb.clone();
        Arrays.sort(sorted);
        double scale = SMALL_BYTES / (sorted[count / 2] * 1e6);
        long[] bytes = new long[count];
        double totalWireBytes = 0;
        for (int i = 0; i < count; i++) {
            bytes[i] = Math.max(4096, Math.min(maxBytes, Math.round(perReducerHostMb[i] * 1e6 * scale)));
            totalWireBytes += (double) bytes[i] * reducers[i] * hosts * (hosts - 1);
        }
        double duration = totalWireBytes * 8 / (hosts * (double) rateBitsPerSec * 0.5);
        long first = all.get(pick.get(0)).arrivalMs();
        long last = all.get(pick.get(count - 1)).arrivalMs();
        List<CoflowSpec> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long a = all.get(pick.get(i)).arrivalMs();
            double at = last == first ? 0 : duration * (a - first) / (double) (last - first);
            out.add(new CoflowSpec(reducers[i], 1, bytes[i], FETCHES, Math.round(at * 1000) / 1000.0));
        }
        return out;
    }
}
