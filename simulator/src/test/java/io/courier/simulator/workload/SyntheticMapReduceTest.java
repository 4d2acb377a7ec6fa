package io.courier.simulator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyntheticMapReduceTest {
    private static final double MIB = 1048576.0;

    private static Workload generate(String spec) {
        return SyntheticMapReduce.parse(spec).generate();
    }

    /** Everything the engine sees of a workload, as text. */
    private static String dump(Workload w) {
        StringBuilder b = new StringBuilder();
        for (WorkloadCoflow c : w.coflows()) {
            b.append(c.id()).append('@').append(c.arrival()).append(c.flows()).append('\n');
        }
        return b.toString();
    }

    private static double totalBytes(Workload w) {
        double s = 0;
        for (WorkloadCoflow c : w.coflows()) {
            s += c.totalBytes();
        }
        return s;
    }

    @Test
    void defaultsAreCanonicalAndDocumented() {
        SyntheticMapReduce g = SyntheticMapReduce.parse("");
        assertEquals("seed=1,hosts=16,capacity=1Gbps,jobs=100,mappers=1-16,reducers=1-100,reducersPerHost=20,"
                + "combine=false,flowSize=lognormal:mean=1MiB:sigma=1,load=0.5", g.toString());
        assertEquals(1.25e8, g.capacity(), 0);
        Workload w = g.generate();
        assertEquals(16, w.network().hostCount());
        assertEquals(1.25e8, w.network().capacity(w.network().down(15)), 0);
        assertEquals(100, w.coflows().size());
        assertEquals(1, w.coflows().get(0).id());
        assertEquals(0.0, w.coflows().get(0).arrival(), 0);
    }

    @Test
    void sameSpecSameWorkloadOtherSeedOtherWorkload() {
        String spec = "hosts=16,jobs=50,mappers=4-40,reducers=1-60,reducersPerHost=20,"
                + "flowSize=lognormal:mean=8MiB:sigma=1.5,load=0.6,seed=42";
        String a = dump(generate(spec));
        assertEquals(a, dump(generate(spec)));
        SyntheticMapReduce g = SyntheticMapReduce.parse(spec);
        assertEquals(a, dump(SyntheticMapReduce.parse(g.toString()).generate()), "canonical spec round-trips");
        assertEquals(a, dump(g.withSeed(7).withSeed(42).generate()));
        assertNotEquals(a, dump(generate(spec.replace("seed=42", "seed=43"))));
        assertEquals(43, g.withSeed(43).seed());
    }

    @Test
    void taskCountsAndSizesFollowTheirDistributions() {
        // 1000 hosts and one reducer per host make host-local (dropped) pairs rare, so the task counts are
        // visible in the flows' indices.
        Workload w = generate("hosts=1000,jobs=800,mappers=4-40,reducers=1-100,reducersPerHost=1,"
                + "flowSize=lognormal:mean=8MiB:sigma=1.5,seed=3");
        int minM = Integer.MAX_VALUE;
        int maxM = 0;
        int minR = Integer.MAX_VALUE;
        int maxR = 0;
        double sumM = 0;
        double sumR = 0;
        List<Double> sizes = new ArrayList<>(1 << 20);
        for (WorkloadCoflow c : w.coflows()) {
            int m = 0;
            int r = 0;
            Map<Integer, Integer> hostOfReducer = new HashMap<>();
            Set<Integer> reducerHosts = new HashSet<>();
            for (WorkloadFlow f : c.flows()) {
                assertTrue(f.src() != f.dst(), () -> "host-local pair kept: " + f);
                m = Math.max(m, f.mapper() + 1);
                r = Math.max(r, f.reducer() + 1);
                Integer h = hostOfReducer.put(f.reducer(), f.dst());
                assertTrue(h == null || h == f.dst(), () -> "reducer on two hosts: " + f);
                sizes.add(f.bytes());
                assertEquals(Math.rint(f.bytes()), f.bytes(), 0);
            }
            reducerHosts.addAll(hostOfReducer.values());
            assertEquals(hostOfReducer.size(), reducerHosts.size(), "reducersPerHost=1: one reducer per host");
            minM = Math.min(minM, m);
            maxM = Math.max(maxM, m);
            minR = Math.min(minR, r);
            maxR = Math.max(maxR, r);
            sumM += m;
            sumR += r;
        }
        assertEquals(4, minM);
        assertEquals(40, maxM);
        assertEquals(1, minR);
        assertEquals(100, maxR);
        assertEquals(22.0, sumM / 800, 1.5); // sd of the mean 10.7/sqrt(800) = 0.38
        assertEquals(50.5, sumR / 800, 4.0); // sd of the mean 28.9/sqrt(800) = 1.02
        double mean = 0;
        for (double s : sizes) {
            mean += s;
        }
        mean /= sizes.size();
        Collections.sort(sizes);
        double median = sizes.get(sizes.size() / 2);
        assertTrue(sizes.size() > 800_000, "flows " + sizes.size());
        // Lognormal mean 8 MiB, sigma 1.5: median 8 MiB * exp(-1.125) = 2.597 MiB; CV 2.9, so the mean of
        // 8·10^5 samples is within 0.33% (1 sd).
        assertEquals(8 * MIB, mean, 0.03 * 8 * MIB);
        assertEquals(8 * MIB * Math.exp(-1.125), median, 0.02 * 8 * MIB * Math.exp(-1.125));
    }

    @Test
    void reducersArePackedReducersPerHostToADistinctHost() {
        Workload w = generate("hosts=16,jobs=100,mappers=40,reducers=45,reducersPerHost=20,flowSize=fixed:size=1MiB");
        for (WorkloadCoflow c : w.coflows()) {
            Map<Integer, Integer> hostOfGroup = new HashMap<>();
            Map<Integer, Set<Integer>> reducersOnHost = new HashMap<>();
            for (WorkloadFlow f : c.flows()) {
                assertTrue(f.reducer() < 45 && f.mapper() < 40, f::toString);
                Integer h = hostOfGroup.put(f.reducer() / 20, f.dst());
                assertTrue(h == null || h == f.dst(), () -> "reducers " + f.reducer() / 20 * 20 + ".. split: " + f);
                reducersOnHost.computeIfAbsent(f.dst(), k -> new HashSet<>()).add(f.reducer());
                assertEquals(MIB, f.bytes(), 0);
            }
            assertEquals(3, new HashSet<>(hostOfGroup.values()).size(), "ceil(45/20) = 3 distinct hosts");
            for (Set<Integer> rs : reducersOnHost.values()) {
                assertTrue(rs.size() <= 20, rs.toString());
            }
        }
    }

    @Test
    void reducerHostsGiveEachChosenHostReducersPerHostReduceTasks() {
        String spec = "hosts=16,jobs=200,mappers=30,reducerHosts=2-5,reducersPerHost=12,flowSize=fixed:size=1KiB";
        SyntheticMapReduce g = SyntheticMapReduce.parse(spec);
        assertTrue(g.toString().contains(",reducerHosts=2-5,reducersPerHost=12,"), g.toString());
        Set<Integer> hostCounts = new HashSet<>();
        for (WorkloadCoflow c : g.generate().coflows()) {
            Map<Integer, Set<Integer>> reducersOnHost = new HashMap<>();
            for (WorkloadFlow f : c.flows()) {
                reducersOnHost.computeIfAbsent(f.dst(), k -> new HashSet<>()).add(f.reducer());
            }
            hostCounts.add(reducersOnHost.size());
            for (Set<Integer> rs : reducersOnHost.values()) {
                // 30 maps on 16 hosts: every reducer has a remote map, so all 12 tasks of each host appear.
                assertEquals(12, rs.size(), rs::toString);
            }
        }
        assertEquals(new HashSet<>(Arrays.asList(2, 3, 4, 5)), hostCounts);
    }

    @Test
    void mapTasksKeepTheirHostAndTheCombinerSumsAJobsMapsPerHost() {
        String spec = "hosts=8,jobs=200,mappers=1-30,reducers=1-40,reducersPerHost=5,flowSize=uniform:min=1B:max=1MiB";
        Workload plain = generate(spec);
        Workload combined = generate(spec + ",combine=true");
        assertEquals(plain.coflows().size(), combined.coflows().size());
        boolean merged = false;
        for (int j = 0; j < plain.coflows().size(); j++) {
            WorkloadCoflow p = plain.coflows().get(j);
            WorkloadCoflow c = combined.coflows().get(j);
            assertEquals(p.arrival(), c.arrival(), 0, "same bytes, so the same load-derived arrivals");
            Map<Integer, Integer> hostOfMapper = new HashMap<>();
            Map<String, Double> bytesByReducerAndSource = new HashMap<>();
            for (WorkloadFlow f : p.flows()) {
                Integer h = hostOfMapper.put(f.mapper(), f.src());
                assertTrue(h == null || h == f.src(), () -> "map task on two hosts: " + f);
                bytesByReducerAndSource.merge(f.reducer() + "<-" + f.src(), f.bytes(), Double::sum);
            }
            Map<Integer, Integer> hostOfSource = new HashMap<>();
            Set<String> pairs = new HashSet<>();
            for (WorkloadFlow f : c.flows()) {
                Integer h = hostOfSource.put(f.mapper(), f.src());
                assertTrue(h == null || h == f.src(), () -> "combined source on two hosts: " + f);
                assertTrue(pairs.add(f.reducer() + "<-" + f.src()), () -> "two combined flows for one pair: " + f);
                assertEquals(bytesByReducerAndSource.get(f.reducer() + "<-" + f.src()), f.bytes(), 0, f::toString);
            }
            assertEquals(bytesByReducerAndSource.keySet(), pairs);
            assertEquals(new HashSet<>(hostOfSource.values()).size(), hostOfSource.size());
            merged |= c.flows().size() < p.flows().size();
        }
        assertTrue(merged, "with up to 30 maps on 8 hosts some must share a host");
    }

    @Test
    void loadChoosesThePoissonRateFromTheGeneratedBytes() {
        String spec = "hosts=16,jobs=3000,mappers=2-10,reducers=1-20,flowSize=pareto:mean=4MiB:alpha=1.5,seed=5";
        Workload w = generate(spec + ",load=0.6");
        double meanJobBytes = totalBytes(w) / 3000;
        double lambda = 0.6 * 16 * 1.25e8 / meanJobBytes;
        assertEquals(lambda, SyntheticMapReduce.rateForLoad(0.6, 16, 1.25e8, meanJobBytes), 0);
        double meanGap = w.coflows().get(2999).arrival() / 2999;
        assertEquals(1 / lambda, meanGap, 0.08 / lambda); // sd of the mean gap: 1.8%
        // Another load only rescales the arrivals: same jobs, gaps exactly twice as long.
        Workload half = generate(spec + ",load=0.3");
        for (int j = 0; j < 3000; j++) {
            WorkloadCoflow a = w.coflows().get(j);
            WorkloadCoflow b = half.coflows().get(j);
            assertEquals(a.flows().toString(), b.flows().toString());
            assertEquals(2 * a.arrival(), b.arrival(), 1e-12 * b.arrival());
        }
    }

    @Test
    void poissonRateAndBatchArrivals() {
        Workload w = generate("jobs=4000,mappers=1-4,reducers=1-4,arrival=poisson:rate=5,seed=9");
        assertEquals(0.0, w.coflows().get(0).arrival(), 0);
        assertEquals(0.2, w.coflows().get(3999).arrival() / 3999, 0.2 * 0.08);
        for (WorkloadCoflow c : generate("jobs=50,arrival=batch").coflows()) {
            assertEquals(0.0, c.arrival(), 0);
        }
        assertTrue(SyntheticMapReduce.parse("arrival=batch").toString().endsWith(",arrival=batch"));
    }

    @Test
    void sizesAndRatesAcceptUnits() {
        Workload w = generate("jobs=3,mappers=1,reducers=1,hosts=2,capacity=128MiB/s,flowSize=fixed:size=1.5KiB");
        assertEquals(134217728.0, w.network().capacity(0), 0);
        for (WorkloadCoflow c : w.coflows()) {
            // Two hosts, one map and one reduce task: the job is redrawn until they differ.
            assertEquals(1, c.flows().size());
            assertEquals(1536.0, c.flows().get(0).bytes(), 0);
        }
        assertEquals(12500000.0, SyntheticMapReduce.parse("capacity=100Mbps").capacity(), 0);
        assertEquals(5.0, SyntheticMapReduce.parse("capacity=40bps").capacity(), 0);
        assertEquals(2.0 * 1073741824, SyntheticMapReduce.parse("capacity=2GiB/s").capacity(), 0);
        assertEquals(3000.0, generate("jobs=1,mappers=1,reducers=1,flowSize=fixed:size=3e3B").coflows().get(0)
                .totalBytes(), 0);
    }

    @Test
    void everyInvalidSpecNamesItsKey() {
        String[][] cases = {
            {"foo=1", "'foo'", "unknown key"},
            {"hosts=abc", "'hosts'", "not an integer"},
            {"hosts=1", "'hosts'", "[2, "},
            {"jobs=0", "'jobs'", "[1, "},
            {"jobs=2.5", "'jobs'", "not an integer"},
            {"seed=1.5", "'seed'", "not an integer"},
            {"mappers=5-2", "'mappers'", "empty range"},
            {"mappers=0-3", "'mappers'", "[1, "},
            {"mappers=-3", "'mappers'", ""},
            {"reducers=x", "'reducers'", "not an integer"},
            {"reducers=1-400", "'reducers'", "hosts with reducersPerHost=20"},
            {"reducersPerHost=0", "'reducersPerHost'", "[1, "},
            {"reducerHosts=17", "'reducerHosts'", "[1, 16]"},
            {"reducerHosts=3-2", "'reducerHosts'", "empty range"},
            {"reducers=4,reducerHosts=2", "'reducerHosts'", "mutually exclusive"},
            {"combine=yes", "'combine'", "true or false"},
            {"capacity=1GB", "'capacity'", "unit"},
            {"capacity=0Gbps", "'capacity'", "> 0"},
            {"capacity=fast", "'capacity'", "not a rate"},
            {"flowSize=gaussian:mean=1MiB", "'flowSize'", "unknown distribution"},
            {"flowSize=lognormal:mean=8MB:sigma=1", "'flowSize.lognormal.mean'", "unknown size unit 'MB'"},
            {"flowSize=lognormal:mean=8MiB", "'flowSize'", "needs sigma"},
            {"flowSize=lognormal:mean=8MiB:sigma=9", "'flowSize.lognormal.sigma'", "[0, 4.0]"},
            {"flowSize=lognormal:mean=0:sigma=1", "'flowSize.lognormal.mean'", "> 0"},
            {"flowSize=pareto:mean=1MiB:alpha=1", "'flowSize.pareto.alpha'", "> 1"},
            {"flowSize=uniform:min=2MiB:max=1MiB", "'flowSize'", "empty range"},
            {"flowSize=fixed:size=1MiB:extra=2", "'extra'", "unknown key"},
            {"flowSize=fixed:size=NaN", "'flowSize.fixed.size'", "not a size"},
            {"load=0", "'load'", "> 0"},
            {"load=-1", "'load'", "not a plain"},
            {"load=abc", "'load'", "not a plain"},
            {"load=Infinity", "'load'", "not a plain"},
            {"load=0.5,arrival=batch", "'load'", "mutually exclusive"},
            {"arrival=poisson:rate=0", "'arrival.poisson.rate'", "> 0"},
            {"arrival=poisson", "'arrival'", "unknown arrival"},
            {"arrival=poisson:speed=2", "'speed'", "unknown key"},
            {"arrival=uniform", "'arrival'", "unknown arrival"},
            {"hosts=16,hosts=8", "'hosts'", "more than once"},
            {"hosts=16,,jobs=2", "'workload'", "empty item"},
            {"hosts", "'workload'", "key=value"},
            {"hosts=", "'hosts'", "empty value"},
            {"hosts=100,jobs=100000,mappers=1000,reducers=1000", "'jobs'", "flows"},
        };
        for (String[] c : cases) {
            WorkloadSpecException e = assertThrows(WorkloadSpecException.class, () -> SyntheticMapReduce.parse(c[0]),
                    c[0]);
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(c[2]),
                    c[0] + " -> " + e.getMessage());
        }
        assertEquals("hosts", assertThrows(WorkloadSpecException.class,
                () -> SyntheticMapReduce.parse("hosts=0")).key());
        assertEquals(Arrays.asList("seed", "hosts", "capacity", "jobs", "mappers", "reducers", "reducerHosts",
                "reducersPerHost", "combine", "flowSize", "load", "arrival"), SyntheticMapReduce.KEYS);
    }
}
