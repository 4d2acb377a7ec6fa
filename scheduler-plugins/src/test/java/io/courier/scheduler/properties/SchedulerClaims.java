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
 *
 * <p>Entries to add when the other schedulers are merged (SCHEDULERS.md §2-§10; parameter names are the
 * ones their factories will define, adjust them to the real ones):
 * <pre>
 *   rateBased("fifo").clairvoyant().workConserving()            // §2: MADD + WC steps 1-2 (P5, P4)
 *   orderBased("fifo").with(greedy variant).workConserving()    // §2 FIFO_GREEDY: E1, needs no sizes
 *   rateBased("varys").clairvoyant().workConserving()           // §3: SEBF + MADD + WC steps 1-2
 *   rateBased("varys").with(static key).clairvoyant().workConserving()   // §3 VARYS_COFLOWSIM_STATIC_KEY
 *   rateBased("aalo").workConserving()                          // §4: strict priority, P1 per tie group
 *   rateBased("aalo").with(weighted mode)                       // §4 weighted: WFQ entitlements, not WC
 *   rateBased("aalo").with(coflowsim, P5 per group)             // §4 AALO_COFLOWSIM: one-shot, not WC
 *   orderBased("sincronia").clairvoyant().workConserving()      // §5: BSSI order, E1
 *   orderBased("sincronia").with(P priority levels).clairvoyant().workConserving()  // §5 line 4
 *   rateBased("fai")                                            // §6: MBAB gives bandwidth back and
 *                                                               //   Alg. 3 adds equal amounts, so no WC
 *   rateBased("fai").with(weighted mode)                        // §6 WFQ step 1, also not WC
 *   orderBased("stream").withEnforcement(E2).workConserving()   // §7: classes under E2 (max-min per
 *                                                               //   class); receiver-local, no sizes
 *   rateBased("skipl").clairvoyant().workConservingOnLinkEstimates()   // §8: conservation step fills
 *                                                               //   B(p) - A(p), i.e. WC against the
 *                                                               //   estimates; physical WC when B = cap
 *   rateBased("iaoa").workConserving()                          // §9: Alg. 4 + max-min on the leftover;
 *                                                               //   uses sent and weights, no sizes
 *   orderBased("weighted-2approx").clairvoyant().workConserving()     // §10: BSSI on total sizes, E1
 * </pre>
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
                // §1 FAIR_COFLOWSIM: min(cap/n) over the two host ports, leaves slack (T-FAIR-1: f1 = 1/2).
                // It overcommits extra links (shrunk counterexample: one flow crossing a 0.1 link gets 1.0).
                rateBased("fair").with("coflowsim", "true")
                        .ignoresExtraLinks("spec §1 defines the variant on the two host ports only; CoflowSim "
                                + "has no in-network links")));
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
