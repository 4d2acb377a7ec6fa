package io.courier.scheduler.properties;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each registered scheduler configuration claims, and so which generic properties
 * ({@link SchedulerPropertiesTest}) it must satisfy. Every name in {@link SchedulerRegistry#standard()}
 * needs at least one entry ({@link SchedulerClaimsTest#everyRegisteredSchedulerHasClaims}); a variant whose
 * claims differ (e.g. a CoflowSim-compatible mode) gets its own entry with its parameters. Immutable.
 */
final class SchedulerClaims {
    /** Against which capacities work conservation is claimed. */
    enum WorkConservation {
        /** Not claimed (the scheduler may leave capacity unused on purpose). */
        NOT_CLAIMED,
        /** Every unfinished flow crosses a resource whose physical capacity is used up. */
        ON_CAPACITIES,
        /**
         * As {@link #ON_CAPACITIES}, but extra links count as full at their estimate {@code B(l)} (SkipL,
         * §8: its conservation step fills {@code B(p) − A(p)}); the same as physical when {@code B = cap}.
         */
        ON_LINK_ESTIMATES
    }

    private final String name;
    private final Map<String, String> parameters;
    private final SchedulerType type;
    private final CoflowScheduler.Enforcement enforcement;
    private final boolean clairvoyant;
    private final WorkConservation workConservation;
    private final String extraLinksIgnoredBecause;

    private SchedulerClaims(String name, Map<String, String> parameters, SchedulerType type,
            CoflowScheduler.Enforcement enforcement, boolean clairvoyant, WorkConservation workConservation,
            String extraLinksIgnoredBecause) {
        this.name = name;
        this.parameters = parameters;
        this.type = type;
        this.enforcement = enforcement;
        this.clairvoyant = clairvoyant;
        this.workConservation = workConservation;
        this.extraLinksIgnoredBecause = extraLinksIgnoredBecause;
    }

    /** The table: one entry per registry configuration worth checking. */
    static List<SchedulerClaims> table() {
        return Collections.unmodifiableList(Arrays.asList(
                // §1: exact max-min over all resources is work-conserving.
                rateBased("fair").workConserving(),
                // §1 FAIR_COFLOWSIM: min(cap/n) over the flow's resources, leaves slack (T-FAIR-1: f1 = 1/2).
                rateBased("fair").with("coflowsim", "true"),
                // §2: MADD + the two work-conservation steps (P5, P4); FIFO_GREEDY is E1, needs no sizes.
                rateBased("fifo").clairvoyant().workConserving(),
                orderBased("fifo").with("mode", "greedy").workConserving(),
                // §3: SEBF + MADD + work conservation, with either key.
                rateBased("varys").clairvoyant().workConserving(),
                rateBased("varys").with("staticKey", "true").clairvoyant().workConserving(),
                // §4: strict priority with exact max-min per tie group fills every flow's bottleneck; the
                // weighted mode caps each queue at its entitlement and P5 leaves slack, so neither is WC.
                rateBased("aalo").workConserving(),
                rateBased("aalo").with("interQueue", "weighted"),
                rateBased("aalo").with("coflowsim", "true"),
                // §5: BSSI order enforced with E1, with unlimited or capped priority levels.
                orderBased("sincronia").clairvoyant().workConserving(),
                orderBased("sincronia").with("priorityLevels", "2").clairvoyant().workConserving(),
                // §6: MBAB gives bandwidth back and Alg. 3 adds equal amounts per coflow: no WC claim.
                rateBased("fai"),
                rateBased("fai").with("interQueue", "weighted"),
                // §7: priority classes under E2 (max-min per class); receiver-local, no sizes.
                orderBased("stream").withEnforcement(CoflowScheduler.Enforcement.PRIORITY_CLASS_MAX_MIN)
                        .workConserving(),
                // §8: the conservation step fills B(p) − A(p); a fresh instance has B = cap.
                rateBased("skipl").clairvoyant().workConservingOnLinkEstimates(),
                // §9: Alg. 4 then max-min on the leftover; uses bytes sent and weights only.
                rateBased("iaoa").workConserving(),
                rateBased("simple-offline").clairvoyant().workConserving(),
                // §10: BSSI on total sizes, E1.
                orderBased("weighted-2approx").clairvoyant().workConserving()));
    }

    /** A non-clairvoyant rate-based scheduler that claims nothing beyond the universal properties. */
    static SchedulerClaims rateBased(String name) {
        return new SchedulerClaims(name, Collections.<String, String>emptyMap(), SchedulerType.RATE_BASED,
                CoflowScheduler.Enforcement.PRIORITY_GREEDY, false, WorkConservation.NOT_CLAIMED, null);
    }

    /** A non-clairvoyant order-based scheduler enforced with E1 that claims only the universal properties. */
    static SchedulerClaims orderBased(String name) {
        return new SchedulerClaims(name, Collections.<String, String>emptyMap(), SchedulerType.ORDER_BASED,
                CoflowScheduler.Enforcement.PRIORITY_GREEDY, false, WorkConservation.NOT_CLAIMED, null);
    }

    SchedulerClaims with(String parameter, String value) {
        Map<String, String> p = new LinkedHashMap<>(parameters);
        p.put(parameter, value);
        return new SchedulerClaims(name, Collections.unmodifiableMap(p), type, enforcement, clairvoyant,
                workConservation, extraLinksIgnoredBecause);
    }

    /** Declares {@code Info.SIZES}; the information-hiding property does not apply. */
    SchedulerClaims clairvoyant() {
        return new SchedulerClaims(name, parameters, type, enforcement, true, workConservation,
                extraLinksIgnoredBecause);
    }

    SchedulerClaims withEnforcement(CoflowScheduler.Enforcement e) {
        return new SchedulerClaims(name, parameters, type, e, clairvoyant, workConservation,
                extraLinksIgnoredBecause);
    }

    SchedulerClaims workConserving() {
        return new SchedulerClaims(name, parameters, type, enforcement, clairvoyant, WorkConservation.ON_CAPACITIES,
                extraLinksIgnoredBecause);
    }

    SchedulerClaims workConservingOnLinkEstimates() {
        return new SchedulerClaims(name, parameters, type, enforcement, clairvoyant,
                WorkConservation.ON_LINK_ESTIMATES, extraLinksIgnoredBecause);
    }

    /**
     * The scheduler's rule (by its spec) plans only host ports, so the capacity property is checked on
     * ports only; {@code because} records why, next to the entry.
     */
    SchedulerClaims ignoresExtraLinks(String because) {
        return new SchedulerClaims(name, parameters, type, enforcement, clairvoyant, workConservation, because);
    }

    String name() {
        return name;
    }

    Map<String, String> parameters() {
        return parameters;
    }

    SchedulerType type() {
        return type;
    }

    CoflowScheduler.Enforcement enforcement() {
        return enforcement;
    }

    boolean isClairvoyant() {
        return clairvoyant;
    }

    WorkConservation workConservation() {
        return workConservation;
    }

    boolean respectsExtraLinks() {
        return extraLinksIgnoredBecause == null;
    }

    /** A fresh instance from the standard registry (schedulers may keep state between calls). */
    CoflowScheduler create() {
        return SchedulerRegistry.standard().create(name, parameters);
    }

    @Override
    public String toString() {
        return name + (parameters.isEmpty() ? "" : parameters.toString());
    }
}
