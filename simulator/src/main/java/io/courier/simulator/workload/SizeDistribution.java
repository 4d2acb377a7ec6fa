package io.courier.simulator.workload;

import java.util.Arrays;
import java.util.Random;

/**
 * A distribution of byte sizes, parsed from {@code NAME:param=value:…}. Every kind is parameterized so that
 * its mean is the number the user writes (or follows from it directly), because loads are reasoned about in
 * means:
 * <ul>
 * <li>{@code fixed:size=S}: always {@code S};</li>
 * <li>{@code uniform:min=S:max=S}: uniform on {@code [min, max]};</li>
 * <li>{@code lognormal:mean=S:sigma=X}: {@code exp(N(mu, sigma^2))} with {@code mu = ln(mean) - sigma^2/2}, so
 * the mean is {@code mean}; {@code sigma} in {@code [0, 4]};</li>
 * <li>{@code pareto:mean=S:alpha=X}: Pareto type I with shape {@code alpha > 1} (finite mean) and scale
 * {@code mean·(alpha-1)/alpha}.</li>
 * </ul>
 * Samples are rounded to whole bytes, at least 1 byte. Immutable.
 */
final class SizeDistribution {
    private enum Kind {
        FIXED("size"), UNIFORM("min", "max"), LOGNORMAL("mean", "sigma"), PARETO("mean", "alpha");

        final String[] params;

        Kind(String... params) {
            this.params = params;
        }
    }

    /** sigma beyond this makes single samples span dozens of orders of magnitude (and overflow). */
    static final double MAX_SIGMA = 4.0;

    private final String text;
    private final Kind kind;
    private final double a;
    private final double b;

    private SizeDistribution(String text, Kind kind, double a, double b) {
        this.text = text;
        this.kind = kind;
        this.a = a;
        this.b = b;
    }

    static SizeDistribution parse(String key, String text) {
        String t = text.trim();
        int colon = t.indexOf(':');
        String name = colon < 0 ? t : t.substring(0, colon);
        Kind kind;
        try {
            kind = Kind.valueOf(name.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new WorkloadSpecException(key, "unknown distribution '" + name
                    + "' (use fixed:size=S, uniform:min=S:max=S, lognormal:mean=S:sigma=X or pareto:mean=S:alpha=X)");
        }
        SpecItems p = SpecItems.parse(key, colon < 0 ? "" : t.substring(colon + 1), ':');
        String[] v = new String[kind.params.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = p.take(kind.params[i]);
        }
        p.rejectUnknown(Arrays.asList(kind.params));
        for (int i = 0; i < v.length; i++) {
            if (v[i] == null) {
                throw new WorkloadSpecException(key, name + " needs " + kind.params[i] + "=… (form "
                        + name + ":" + String.join("=…:", kind.params) + "=…)");
            }
        }
        String pk = key + "." + name + ".";
        switch (kind) {
            case FIXED:
                return new SizeDistribution(t, kind, Quantities.bytes(pk + "size", v[0]), 0);
            case UNIFORM: {
                double min = Quantities.bytes(pk + "min", v[0]);
                double max = Quantities.bytes(pk + "max", v[1]);
                if (min > max) {
                    throw new WorkloadSpecException(key, "empty range: min " + v[0] + " exceeds max " + v[1]);
                }
                return new SizeDistribution(t, kind, min, max);
            }
            case LOGNORMAL: {
                double sigma = Quantities.real(pk + "sigma", v[1]);
                if (sigma > MAX_SIGMA) {
                    throw new WorkloadSpecException(pk + "sigma", "must be in [0, " + MAX_SIGMA + "], got " + v[1]);
                }
                return new SizeDistribution(t, kind, Quantities.bytes(pk + "mean", v[0]), sigma);
            }
            default: {
                double alpha = Quantities.real(pk + "alpha", v[1]);
                if (!(alpha > 1)) {
                    throw new WorkloadSpecException(pk + "alpha", "must be > 1 (the mean is infinite otherwise), got "
                            + v[1]);
                }
                return new SizeDistribution(t, kind, Quantities.bytes(pk + "mean", v[0]), alpha);
            }
        }
    }

    /** The mean before rounding to whole bytes. */
    double mean() {
        return kind == Kind.UNIFORM ? (a + b) / 2 : a;
    }

    /** One sample in whole bytes, {@code >= 1}. */
    double draw(Random rng) {
        double x;
        switch (kind) {
            case FIXED:
                x = a;
                break;
            case UNIFORM:
                x = a + (b - a) * rng.nextDouble();
                break;
            case LOGNORMAL:
                x = Math.exp(Math.log(a) - b * b / 2 + b * rng.nextGaussian());
                break;
            default:
                double scale = a * (b - 1) / b;
                x = scale / Math.pow(1 - rng.nextDouble(), 1 / b); // 1 - U lies in (0, 1]
                break;
        }
        // Huge Pareto tails can exceed every real transfer; 2^53 keeps byte counts exact in a double.
        return Math.max(1, Math.min(Math.rint(x), 9007199254740992.0));
    }

    @Override
    public String toString() {
        return text;
    }
}
