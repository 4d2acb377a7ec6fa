package io.courier.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The daemon's configuration precedence and its start-up errors (no daemon is left running). */
@Timeout(60)
class CoordinatorMainTest {
    @TempDir
    Path dir;

    private CoordinatorSettings settings(String... args) {
        CoordinatorMain main = new CoordinatorMain();
        new CommandLine(main).parseArgs(args);
        return CoordinatorSettings.from(main.configuration(getClass().getClassLoader()));
    }

    @Test
    void flagsOverrideTheFileWhichOverridesTheDefaults() throws IOException {
        File conf = dir.resolve("c.conf").toFile();
        Files.write(conf.toPath(), ("courier.coordinator { port = 1111, epoch = 50ms, scheduler.name = aalo,"
                + " http.port = 2222, node-expiry = 3s }").getBytes(StandardCharsets.UTF_8));
        CoordinatorSettings fromFile = settings("--conf", conf.getPath());
        assertEquals(1111, fromFile.port());
        assertEquals(50, fromFile.epochMillis());
        assertEquals("aalo", fromFile.scheduler());
        assertEquals(3000, fromFile.nodeExpiryMillis());
        CoordinatorSettings flags = settings("--conf", conf.getPath(), "--port", "3333", "--epoch-ms", "7",
                "--scheduler", "varys", "--http-port", "4444", "-P", "epoch=0.5");
        assertEquals(3333, flags.port());
        assertEquals(4444, flags.httpPort());
        assertEquals(7, flags.epochMillis());
        assertEquals("varys", flags.scheduler());
        assertEquals("0.5", flags.schedulerParameters().get("epoch"));
        CoordinatorSettings defaults = settings();
        assertEquals(17400, defaults.port());
        assertEquals(10, defaults.epochMillis());
        assertEquals(8.0, defaults.priorityWeights().get("VERY_HIGH"), 0.0);
    }

    @Test
    void anUnknownKeyInTheFileFailsAtStartNamingIt() throws IOException {
        File conf = dir.resolve("typo.conf").toFile();
        Files.write(conf.toPath(), ("courier.coordinator { node-expiry = 3s, epok = 50ms }")
                .getBytes(StandardCharsets.UTF_8));
        com.typesafe.config.ConfigException e = assertThrows(com.typesafe.config.ConfigException.class,
                () -> settings("--conf", conf.getPath()));
        assertTrue(e.getMessage().contains("courier.coordinator.epok") && e.getMessage().contains("unknown setting"),
                e.getMessage());
        assertEquals(2, new CommandLine(new CoordinatorMain()).execute("--conf", conf.getPath(), "--port", "0",
                "--http-port", "0"));
        // Scheduler parameters and priority names are maps of their own: any name is a key there.
        Files.write(conf.toPath(), ("courier.coordinator { scheduler { name = aalo, parameters { epoch = 1 } },"
                + " priority-weights { URGENT = 16 } }").getBytes(StandardCharsets.UTF_8));
        CoordinatorSettings ok = settings("--conf", conf.getPath());
        assertEquals("1", ok.schedulerParameters().get("epoch"));
    }

    @Test
    void anUnknownSchedulerFailsAtStartWithTheValidNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Coordinator.start(settings("--scheduler", "nope", "--port", "0"), ConfigFactoryHolder.load(),
                        getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("unknown scheduler 'nope'"), e.getMessage());
        assertTrue(e.getMessage().contains("varys"), e.getMessage());
        assertEquals(2, new CommandLine(new CoordinatorMain()).execute("--scheduler", "nope", "--port", "0",
                "--http-port", "0"));
        assertEquals(2, new CommandLine(new CoordinatorMain()).execute("--conf", dir.resolve("missing.conf").toString()));
    }

    /** Keeps the test readable. */
    static final class ConfigFactoryHolder {
        static com.typesafe.config.Config load() {
            return com.typesafe.config.ConfigFactory.load();
        }
    }
}
