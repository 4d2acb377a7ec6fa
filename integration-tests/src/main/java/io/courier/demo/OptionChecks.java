package io.courier.demo;

import io.courier.scheduler.registry.SchedulerRegistry;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The value checks a demo or benchmark command makes before it starts a cluster or a testbed: a count out of range
 * or an unknown scheduler name is a usage error (picocli's exit code 2) that names the option, instead of a failure
 * minutes later inside Hadoop. Each check returns this, so a command lists its checks in one chain. Stateless past
 * construction; use it on the thread that runs the command.
 */
public final class OptionChecks {
    private final CommandSpec spec;

    public OptionChecks(CommandSpec spec) {
        this.spec = spec;
    }

    /** {@code value >= min}. */
    public OptionChecks atLeast(String option, long value, long min) {
        if (value < min) {
            throw error(option + " must be at least " + min + ", got " + value);
        }
        return this;
    }

    /** {@code 0 <= value <= 1}. */
    public OptionChecks fraction(String option, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw error(option + " must be a fraction between 0 and 1, got " + value);
        }
        return this;
    }

    /** A scheduler the registry knows (the coordinator would refuse any other at its start). */
    public OptionChecks scheduler(String option, String name) {
        try {
            SchedulerRegistry.standard().factory(name);
        } catch (IllegalArgumentException e) {
            throw error(option + ": " + e.getMessage());
        }
        return this;
    }

    /** A usage error of this command with the given message. */
    public ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
