package io.courier.simulator.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Coflow weights for the weighted schedulers, from a spec:
 * <ul>
 * <li>{@code W} or {@code fixed:W}: every coflow gets {@code W > 0} (the default is {@code 1});</li>
 * <li>{@code uniform:A-B[:seed=N]}: integers drawn uniformly from {@code A..B} inclusive, {@code 1 <= A <= B},
 * as IAOA draws from {@code {1..5}} on the FB trace (PAPER_RESULTS.md §5);</li>
 * <li>{@code uniform-real:A-B[:seed=N]}: reals drawn uniformly from {@code [A, B)}, {@code 0 < A <= B}.</li>
 * </ul>
 * Random weights are drawn in the workload's coflow order (arrival, id) from {@code java.util.Random(seed)},
 * seed 1 unless given, so a spec and a workload always give the same weights. Immutable.
 */
public final class Weights {
    private enum Kind { FIXED, UNIFORM, UNIFORM_REAL }

    private final String spec;
    private final Kind kind;
    private final double low;
    private final double high;
    private final long seed;

    private Weights(String spec, Kind kind, double low, double high, long seed) {
        this.spec = spec;
        this.kind = kind;
        this.low = low;
        this.high = high;
        this.seed = seed;
    }

    public static Weights parse(String spec) {
        String t = spec.trim();
        int colon = t.indexOf(':');
        String name = colon < 0 ? "" : t.substring(0, colon);
        String rest = colon < 0 ? t : t.substring(colon + 1);
        if (colon < 0 || name.equals("fixed")) {
            double w = Quantities.positiveReal("weights", rest);
            return new Weights(t, Kind.FIXED, w, w, 0);
        }
        Kind kind;
        if (name.equals("uniform")) {
            kind = Kind.UNIFORM;
        } else if (name.equals("uniform-real")) {
            kind = Kind.UNIFORM_REAL;
        } else {
            throw new WorkloadSpecException("weights", "unknown weight spec '" + spec
                    + "' (use W, fixed:W, uniform:A-B[:seed=N] or uniform-real:A-B[:seed=N])");
        }
        int seedAt = rest.indexOf(':');
        String range = seedAt < 0 ? rest : rest.substring(0, seedAt);
        long seed = 1;
        if (seedAt >= 0) {
            SpecItems p = SpecItems.parse("weights", rest.substring(seedAt + 1), ':');
            String s = p.take("seed");
            p.rejectUnknown(java.util.Collections.singletonList("seed"));
            if (s == null) {
                throw new WorkloadSpecException("weights", "expected ':seed=N' after the range in '" + spec + "'");
            }
            seed = Quantities.integer("weights.seed", s);
        }
        int dash = range.indexOf('-');
        if (dash < 0) {
            throw new WorkloadSpecException("weights", name + " needs a range A-B, got '" + range + "'");
        }
        String a = range.substring(0, dash);
        String b = range.substring(dash + 1);
        double lo;
        double hi;
        if (kind == Kind.UNIFORM) {
            lo = Quantities.intIn("weights", a, 1, Integer.MAX_VALUE - 1);
            hi = Quantities.intIn("weights", b, 1, Integer.MAX_VALUE - 1);
        } else {
            lo = Quantities.positiveReal("weights", a);
            hi = Quantities.positiveReal("weights", b);
        }
        if (lo > hi) {
            throw new WorkloadSpecException("weights", "empty range " + range
                    + " (the lower end exceeds the upper end)");
        }
        return new Weights(t, kind, lo, hi, seed);
    }

    /** The same spec with another seed (fixed weights ignore it), e.g. for IAOA's 100 weight draws. */
    public Weights withSeed(long newSeed) {
        return new Weights(spec, kind, low, high, newSeed);
    }

    public long seed() {
        return seed;
    }

    public boolean isFixed() {
        return kind == Kind.FIXED;
    }

    /** The workload with every coflow's weight replaced. */
    public Workload apply(Workload workload) {
        Random rng = new Random(seed);
        List<WorkloadCoflow> out = new ArrayList<>(workload.coflows().size());
        for (WorkloadCoflow c : workload.coflows()) {
            out.add(c.withWeight(draw(rng)));
        }
        return workload.withCoflows(workload.name() + " (weights " + this + ")", out);
    }

    private double draw(Random rng) {
        switch (kind) {
            case FIXED:
                return low;
            case UNIFORM:
                return low + rng.nextInt((int) (high - low) + 1);
            default:
                return low == high ? low : low + (high - low) * rng.nextDouble();
        }
    }

    @Override
    public String toString() {
        return kind == Kind.FIXED ? "fixed:" + low : spec.replaceFirst(":seed=-?\\d+$", "") + ":seed=" + seed;
    }
}
