package io.courier.scheduler.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.fair.FairScheduler;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad scheduler names and parameters are rejected with messages a user can act on: the valid names, the
 * valid parameters, or the parameter, its scheduler and the broken rule.
 */
class RegistryValidationTest {

    private static String rejects(Executable e, String... fragments) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String f : fragments) {
            assertTrue(x.getMessage().contains(f), "message '" + x.getMessage() + "' lacks '" + f + "'");
        }
        return x.getMessage();
    }

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void unknownSchedulerNameListsTheValidNames() {
        SchedulerRegistry r = SchedulerRegistry.standard();
        String msg = rejects(() -> r.create("varys-ultra"), "unknown scheduler 'varys-ultra'", "valid schedulers: ");
        for (String name : r.names()) {
            assertTrue(msg.contains(name), "message '" + msg + "' does not list " + name);
        }
        rejects(() -> r.factory(null), "unknown scheduler 'null'", "fair");
    }

    @Test
    void unknownParameterListsTheValidParameters() {
        rejects(() -> SchedulerRegistry.standard().create("fair", params("K", "10")),
                "unknown parameter 'K' for scheduler 'fair'", "valid parameters: coflowsim");
        SchedulerFactory bare = factory("bare");
        rejects(() -> SchedulerParameters.resolve("bare", bare.parameters(), params("x", "1")),
                "unknown parameter 'x' for scheduler 'bare'", "valid parameters: (none)");
    }

    @Test
    void malformedBooleanNamesTheParameter() {
        rejects(() -> SchedulerRegistry.standard().create("fair", params("coflowsim", "maybe")),
                "parameter 'coflowsim' of scheduler 'fair'", "true or false", "'maybe'");
    }

    /** Holds for every parameter of every registered scheduler, including ones merged later. */
    @Test
    void everyRegisteredParameterRejectsGarbageAndNamesItself() {
        SchedulerRegistry r = SchedulerRegistry.standard();
        for (String name : r.names()) {
            for (ParameterSpec p : r.factory(name).parameters()) {
                rejects(() -> r.create(name, params(p.name(), "%garbage%")),
                        "parameter '" + p.name() + "' of scheduler '" + name + "'", "'%garbage%'");
                if (p.kind() == ParameterSpec.Kind.DOUBLE) {
                    rejects(() -> r.create(name, params(p.name(), "NaN")),
                            "parameter '" + p.name() + "' of scheduler '" + name + "'", "NaN");
                }
                // The default must itself be valid.
                SchedulerParameters.resolve(name, r.factory(name).parameters(), params(p.name(), p.defaultValue()));
            }
        }
    }

    private static final List<ParameterSpec> SPECS = Arrays.asList(
            ParameterSpec.integer("K", 10, 1, 64, "queues"),
            ParameterSpec.positive("delta", 0.01, "epoch"),
            ParameterSpec.real("alpha", 1.0, 0.0, false, "weight"),
            ParameterSpec.bool("coflowsim", false, "compat"),
            ParameterSpec.choice("policy", "strict", "inter-queue policy", "strict", "weighted"));

    @Test
    void outOfRangeValuesNameTheParameterAndTheRule() {
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("K", "0")),
                "parameter 'K' of scheduler 'test'", "must be in [1, 64]", "got 0");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("K", "65")), "parameter 'K'", "got 65");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("delta", "0")),
                "parameter 'delta' of scheduler 'test'", "must be > 0.0", "'0'");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("delta", "-0.5")), "parameter 'delta'",
                "'-0.5'");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("alpha", "-1e-9")),
                "parameter 'alpha'", "must be >= 0.0");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("policy", "lottery")),
                "parameter 'policy' of scheduler 'test'", "one of [strict, weighted]", "'lottery'");
    }

    @Test
    void malformedValuesNameTheParameter() {
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("K", "ten")),
                "parameter 'K' of scheduler 'test'", "must be an integer", "'ten'");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("K", "2.5")), "parameter 'K'", "integer");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("K", "99999999999")), "parameter 'K'",
                "integer");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("delta", "10ms")),
                "parameter 'delta' of scheduler 'test'", "must be a number", "'10ms'");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("delta", "")), "parameter 'delta'",
                "must be a number");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("alpha", "NaN")), "parameter 'alpha'", "NaN");
        rejects(() -> SchedulerParameters.resolve("test", SPECS, params("coflowsim", "yes")),
                "parameter 'coflowsim'", "true or false");
    }

    @Test
    void validValuesAreParsedTrimmedAndDefaultsFilledIn() {
        SchedulerParameters p = SchedulerParameters.resolve("test", SPECS,
                params("K", " 4 ", "delta", "0.1", "coflowsim", "TRUE", "policy", "weighted"));
        assertEquals(4, p.getInt("K"));
        assertEquals(0.1, p.getDouble("delta"), 0.0);
        assertEquals(1.0, p.getDouble("alpha"), 0.0);
        assertEquals(true, p.getBoolean("coflowsim"));
        assertEquals("weighted", p.getChoice("policy"));
        rejects(() -> p.getDouble("beta"), "scheduler 'test' has no parameter 'beta'");
    }

    @Test
    void badSpecsAndDuplicateRegistrationsAreRejected() {
        rejects(() -> ParameterSpec.choice("policy", "fifo", "d", "strict", "weighted"),
                "default fifo of policy is not one of [strict, weighted]");
        rejects(() -> new SchedulerRegistry(Arrays.asList(FairScheduler.factory(), FairScheduler.factory())),
                "two schedulers are registered as 'fair'");
    }

    private static SchedulerFactory factory(final String name) {
        return new SchedulerFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return "test factory without parameters";
            }

            @Override
            public List<ParameterSpec> parameters() {
                return Collections.emptyList();
            }

            @Override
            public CoflowScheduler create(SchedulerParameters parameters) {
                return new FairScheduler(false);
            }
        };
    }
}
