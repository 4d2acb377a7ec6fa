package io.courier.scheduler.registry;

import io.courier.scheduler.CoflowScheduler;
import java.util.List;

/** Creates one kind of scheduler from validated parameters; registered by name in {@link SchedulerRegistry}. */
public interface SchedulerFactory {
    /** The registry name, e.g. {@code aalo}. */
    String name();

    /** One line for listings and error messages. */
    String description();

    List<ParameterSpec> parameters();

    CoflowScheduler create(SchedulerParameters parameters);
}
