package io.courier.scheduler.properties;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik generators of random, valid cluster states for the scheduler properties: a big switch of 2..12
 * hosts (capacities uniform or varied, at unit, kilo or byte scale), 0..3 extra links whose estimates are
 * sometimes below their capacity, 1..8 active coflows that arrived no later than {@code now} (equal
 * arrivals are frequent, since tie groups matter to Aalo and Fai), weights in [0.5, 5], and 1..15 flows per
 * coflow with random endpoints, sizes, progress, measurements and previous rates.
 *
 * <p>The state is generated as a plain description ({@link NetworkSpec}, {@link CoflowSpec},
 * {@link FlowSpec}) whose host and link choices are taken modulo the generated network. That keeps every
 * part independent, so jqwik can shrink a failing case part by part, and the description prints readably.
 */
final class RandomStates {
    /** A prime larger than the most flows a state can have (8 coflows × 15 flows), for id permutations. */
    static final int ID_MODULUS = 127;
    /** Capacity scales: unit tests' units, a mid scale, and CoflowSim's 1 Gbps port in bytes/s. */
    private static final Double[] SCALES = {1.0, 1000.0, 134217728.0};

    private RandomStates() {
    }

    static Arbitrary<GeneratedState> states() {
        Arbitrary<Double> now = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0.0)),
                Tuple.of(4, decimals(0.0, 1000.0)));
        Arbitrary<List<CoflowSpec>> coflows = coflow().list().ofMinSize(1).ofMaxSize(8);
        Arbitrary<Integer> idStride = Arbitraries.integers().between(1, ID_MODULUS - 1);
        Arbitrary<Boolean> interleave = Arbitraries.of(true, false);
        return Combinators.combine(network(), now, coflows, idStride, interleave).as(GeneratedState::new);
    }

    private static Arbitrary<NetworkSpec> network() {
        Arbitrary<Integer> hosts = Arbitraries.integers().between(2, 12);
        Arbitrary<Double> scale = Arbitraries.of(SCALES);
        Arbitrary<Boolean> uniform = Arbitraries.of(true, false);
        Arbitrary<List<Double>> portMultipliers = multiplier().list().ofSize(2 * 12);
        Arbitrary<List<LinkSpec>> links = link().list().ofMinSize(0).ofMaxSize(3);
        return Combinators.combine(hosts, scale, uniform, portMultipliers, links).as(NetworkSpec::new);
    }

    private static Arbitrary<LinkSpec> link() {
        // B(l) <= cap(l): Alg. 2 of SkipL sets it to measured throughput or back to the capacity.
        Arbitrary<Double> estimateFraction = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(1.0)),
                Tuple.of(2, decimals(0.0, 1.0)),
                Tuple.of(1, Arbitraries.just(0.0)));
        return Combinators.combine(multiplier(), estimateFraction).as(LinkSpec::new);
    }

    /** Uniform doubles with six decimals (jqwik's default scale of 2 would coarsen the fractions). */
    private static Arbitrary<Double> decimals(double min, double max) {
        return Arbitraries.doubles().between(min, max).ofScale(6);
    }

    private static Arbitrary<Double> multiplier() {
        return decimals(0.1, 10.0);
    }

    private static Arbitrary<CoflowSpec> coflow() {
        Arbitrary<Double> arrivalFraction = Arbitraries.frequencyOf(
                Tuple.of(3, decimals(0.0, 1.0)),
                Tuple.of(2, Arbitraries.of(0.0, 0.5, 1.0)));
        Arbitrary<Double> weight = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(1.0)),
                Tuple.of(2, decimals(0.5, 5.0)));
        Arbitrary<List<FlowSpec>> flows = flow().list().ofMinSize(1).ofMaxSize(15);
        return Combinators.combine(arrivalFraction, weight, flows).as(CoflowSpec::new);
    }

    private static Arbitrary<FlowSpec> flow() {
        Arbitrary<Integer> host = Arbitraries.integers().between(0, 11);
        Arbitrary<Double> sizeExponent = decimals(-3.0, 3.0);
        Arbitrary<Double> sentFraction = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0.0)),
                Tuple.of(3, decimals(0.0, 0.999)));
        Arbitrary<Boolean> finished = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(false)),
                Tuple.of(1, Arbitraries.just(true)));
        Arbitrary<Double> rateFraction = decimals(0.0, 2.0).injectNull(0.4);
        Arbitrary<Integer> pathMask = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0)),
                Tuple.of(1, Arbitraries.integers().between(1, 7)));
        return Combinators.combine(host, host, sizeExponent, sentFraction, finished, rateFraction, rateFraction,
                pathMask).as(FlowSpec::new);
    }

    /** The fabric: host capacities are {@code scale} when uniform, else {@code scale · multiplier}. */
    static final class NetworkSpec {
        final int hosts;
        final double scale;
        final boolean uniform;
        final List<Double> portMultipliers;
        final List<LinkSpec> links;

        NetworkSpec(int hosts, double scale, boolean uniform, List<Double> portMultipliers, List<LinkSpec> links) {
            this.hosts = hosts;
            this.scale = scale;
            this.uniform = uniform;
            this.portMultipliers = portMultipliers;
            this.links = links;
        }
    }

    /** An extra link: capacity {@code scale · multiplier}, estimate {@code B(l) = fraction · capacity}. */
    static final class LinkSpec {
        final double capacityMultiplier;
        final double estimateFraction;

        LinkSpec(double capacityMultiplier, double estimateFraction) {
            this.capacityMultiplier = capacityMultiplier;
            this.estimateFraction = estimateFraction;
        }
    }

    /** A coflow: arrival {@code = now · fraction}, its weight and its flows. */
    static final class CoflowSpec {
        final double arrivalFraction;
        final double weight;
        final List<FlowSpec> flows;

        CoflowSpec(double arrivalFraction, double weight, List<FlowSpec> flows) {
            this.arrivalFraction = arrivalFraction;
            this.weight = weight;
            this.flows = flows;
        }
    }

    /**
     * A flow: endpoints modulo the host count, size {@code scale · 10^exponent}, progress, optional
     * measured and previous rates as fractions of the scale, and extra links as a bit mask over the links.
     */
    static final class FlowSpec {
        final int src;
        final int dst;
        final double sizeExponent;
        final double sentFraction;
        final boolean finished;
        final Double measuredFraction;
        final Double desiredFraction;
        final int pathMask;

        FlowSpec(int src, int dst, double sizeExponent, double sentFraction, boolean finished,
                Double measuredFraction, Double desiredFraction, int pathMask) {
            this.src = src;
            this.dst = dst;
            this.sizeExponent = sizeExponent;
            this.sentFraction = sentFraction;
            this.finished = finished;
            this.measuredFraction = measuredFraction;
            this.desiredFraction = desiredFraction;
            this.pathMask = pathMask;
        }
    }
}
