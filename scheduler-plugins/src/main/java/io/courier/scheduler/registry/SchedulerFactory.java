package io.courier.scheduler.registry;

import io.courier.scheduler.CoflowScheduler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/** Creates one kind of scheduler from validated parameters; registered by name in {@link SchedulerRegistry}. */
public interface SchedulerFactory {
    /** The registry name, e.g. {@code aalo}. */
    String name();

    /** One line for listings and error messages. */
    String description();

    List<ParameterSpec> parameters();

    CoflowScheduler create(SchedulerParameters parameters);

    /** A factory from its parts; {@code create} receives parameters already validated against {@code parameters}. */
    static SchedulerFactory of(String name, String description, List<ParameterSpec> parameters,
            Function<SchedulerParameters, CoflowScheduler> create) {
        List<ParameterSpec> specs = Collections.unmodifiableList(new ArrayList<>(parameters));
        return new SchedulerFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public List<ParameterSpec> parameters() {
                return specs;
            }

            @Override
            public CoflowScheduler create(SchedulerParameters p) {
                return create.apply(p);
            }
        };
    }
}
