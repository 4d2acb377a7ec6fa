package io.courier.simulator.cli;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.registry.SchedulerFactory;
import io.courier.scheduler.registry.SchedulerParameters;
import io.courier.scheduler.registry.SchedulerRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scheduler entry of the command line resolved for the simulator: the user's entry, the parameters it
 * will really run with (CoflowSim variant and {@link SimulationDefaults} applied, user's values winning) and
 * a note for each parameter the simulator chose. Validated against the registry when built. Immutable.
 */
public final class PlannedScheduler {
    private final SchedulerSpec given;
    private final Map<String, String> parameters;
    private final Map<String, String> effective;
    private final List<String> notes;
    private final SchedulerRegistry registry;

    private PlannedScheduler(SchedulerSpec given, Map<String, String> parameters, Map<String, String> effective,
            List<String> notes, SchedulerRegistry registry) {
        this.given = given;
        this.parameters = Collections.unmodifiableMap(parameters);
        this.effective = Collections.unmodifiableMap(effective);
        this.notes = Collections.unmodifiableList(notes);
        this.registry = registry;
    }

    /**
     * Resolves {@code given}; an unknown name or a bad parameter becomes a {@link UsageException} with the
     * registry's message (which lists the valid names or parameters).
     */
    public static PlannedScheduler plan(SchedulerSpec given, boolean coflowSimCompat, SimulationDefaults defaults,
            SchedulerRegistry registry) {
        SchedulerSpec spec = coflowSimCompat ? CoflowSimCompat.variant(given) : given;
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, String> p : spec.parameters().entrySet()) {
            if (!given.parameters().containsKey(p.getKey())) {
                notes.add(p.getKey() + "=" + p.getValue() + " (CoflowSim variant, --coflowsim-compat)");
            }
        }
        for (SimulationDefaults.Setting o : defaults.applicable(spec.name(), spec.parameters())) {
            notes.add(o.parameter() + "=" + o.value() + " (simulator default: " + o.reason() + ")");
        }
        Map<String, String> params = defaults.apply(spec.name(), spec.parameters());
        Map<String, String> effective = new LinkedHashMap<>();
        try {
            SchedulerFactory f = registry.factory(spec.name());
            SchedulerParameters resolved = SchedulerParameters.resolve(f.name(), f.parameters(), params);
            for (Map.Entry<String, Object> e : resolved.asMap().entrySet()) {
                effective.put(e.getKey(), String.valueOf(e.getValue()));
            }
            registry.create(spec.name(), params);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        return new PlannedScheduler(given, params, effective, notes, registry);
    }

    /** The entry as the user wrote it (canonical form): the label of the run in every report. */
    public String label() {
        return given.label();
    }

    public String name() {
        return given.name();
    }

    public SchedulerSpec given() {
        return given;
    }

    /** What is handed to the registry: the user's parameters plus the simulator's choices. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** Every parameter of the scheduler with the value it runs with, defaults included, in declaration order. */
    public Map<String, String> effectiveParameters() {
        return effective;
    }

    /** One line per parameter the simulator set, with the reason. */
    public List<String> notes() {
        return notes;
    }

    /** A new instance (schedulers keep state, so every run gets its own). */
    public CoflowScheduler create() {
        return registry.create(given.name(), parameters);
    }
}
