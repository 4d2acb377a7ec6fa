package io.courier.scheduler.registry;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.aalo.AaloScheduler;
import io.courier.scheduler.fai.FaiScheduler;
import io.courier.scheduler.fair.FairScheduler;
import io.courier.scheduler.fifo.FifoScheduler;
import io.courier.scheduler.iaoa.IaoaScheduler;
import io.courier.scheduler.iaoa.SimpleOfflineScheduler;
import io.courier.scheduler.sincronia.SincroniaScheduler;
import io.courier.scheduler.skipl.SkipLScheduler;
import io.courier.scheduler.stream.StreamScheduler;
import io.courier.scheduler.varys.VarysScheduler;
import io.courier.scheduler.w2a.WeightedTwoApproxScheduler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Schedulers by name. {@link #standard()} builds a fresh registry of every scheduler Courier ships;
 * unknown names and bad parameters are rejected with a message that lists what is valid.
 */
public final class SchedulerRegistry {
    private final Map<String, SchedulerFactory> factories;

    public SchedulerRegistry(List<SchedulerFactory> factories) {
        Map<String, SchedulerFactory> m = new LinkedHashMap<>();
        for (SchedulerFactory f : factories) {
            if (m.put(f.name(), f) != null) {
                throw new IllegalArgumentException("two schedulers are registered as '" + f.name() + "'");
            }
        }
        this.factories = Collections.unmodifiableMap(m);
    }

    /** Every built-in scheduler. */
    public static SchedulerRegistry standard() {
        return new SchedulerRegistry(Arrays.<SchedulerFactory>asList(
                FairScheduler.factory(),
                FifoScheduler.factory(),
                VarysScheduler.factory(),
                AaloScheduler.factory(),
                SincroniaScheduler.factory(),
                FaiScheduler.factory(),
                StreamScheduler.factory(),
                SkipLScheduler.factory(),
                IaoaScheduler.factory(),
                SimpleOfflineScheduler.factory(),
                WeightedTwoApproxScheduler.factory()
        ));
    }

    public List<String> names() {
        return new ArrayList<>(factories.keySet());
    }

    public SchedulerFactory factory(String name) {
        SchedulerFactory f = factories.get(name == null ? "" : name.trim());
        if (f == null) {
            throw new IllegalArgumentException("unknown scheduler '" + name + "'; valid schedulers: "
                    + String.join(", ", factories.keySet()));
        }
        return f;
    }

    /** A new scheduler instance (schedulers may keep state, so every driver gets its own). */
    public CoflowScheduler create(String name, Map<String, String> parameters) {
        SchedulerFactory f = factory(name);
        return f.create(SchedulerParameters.resolve(f.name(), f.parameters(), parameters));
    }

    public CoflowScheduler create(String name) {
        return create(name, Collections.<String, String>emptyMap());
    }
}
