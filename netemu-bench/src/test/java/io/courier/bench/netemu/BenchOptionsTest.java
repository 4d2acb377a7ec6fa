package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark drivers' option checks, which the harness scripts run before they build a testbed: a wrong option
 * is a one-line usage error naming it (exit 2), and {@code --check-options} on good options does nothing else.
 */
class BenchOptionsTest {
    @TempDir
    Path tmp;

    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine cl = NetemuBench.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    private String[] run(String... more) {
        List<String> a = new ArrayList<>(Arrays.asList("run", "--check-options", "--hosts", "8", "--rate-mbit", "50",
                "--socket-dir", tmp.resolve("sockets").toString(), "--out", tmp.resolve("out").toString()));
        a.addAll(Arrays.asList(more));
        return a.toArray(new String[0]);
    }

    private String[] yarn(String... more) {
        List<String> a = new ArrayList<>(Arrays.asList("yarn-terasort", "--check-options", "--hosts", "4", "--prefix",
                "cny-", "--subnet", "10.205.0", "--pids", tmp.resolve("pids").toString(), "--out",
                tmp.resolve("out").toString()));
        a.addAll(Arrays.asList(more));
        return a.toArray(new String[0]);
    }

    @Test
    void goodOptionsPassTheCheckAndNothingIsCreated() {
        assertEquals(0, execute(run("--quick", "--families", "small,mixed", "--modes", "stock,courier+aalo",
                "--coordinator-scheduler", "aalo", "--repeats", "2")), err.toString());
        assertEquals(0, execute(yarn("--reduces", "8", "--rows", "200000", "--warmups", "0")), err.toString());
        assertFalse(Files.exists(tmp.resolve("out")), "a check must not create the report directory");
    }

    @Test
    void anUnknownFamilyIsAUsageErrorNamingIt() {
        assertEquals(2, execute(run("--families", "small,smal")));
        String e = err.toString();
        assertTrue(e.startsWith("bin/courier bench netemu: unknown family 'smal' in --families (known: small, bulk,"),
                e);
        assertTrue(e.contains("(see 'bin/courier bench netemu --help')"), e);
        assertEquals(1, e.trim().split("\n").length, "one line, not the whole option list: " + e);
    }

    @Test
    void theCoordinatorsSchedulerIsCheckedWhenAModeUsesIt() {
        assertEquals(2, execute(run("--coordinator-scheduler", "varyz")));
        assertTrue(err.toString().contains("unknown scheduler 'varyz'; valid schedulers: fair,"), err.toString());
        assertEquals(0, execute(run("--modes", "stock,courier", "--coordinator-scheduler", "varyz")),
                "no mode runs the coordinator, so its scheduler does not matter: " + err);
        assertEquals(2, execute(run("--modes", "stock,courrier")));
        assertTrue(err.toString().contains("unknown mode 'courrier' in --modes"), err.toString());
    }

    @Test
    void countsOutsideTheirRangeAreUsageErrorsNamingTheOption() {
        assertEquals(2, execute(run("--repeats", "0")));
        assertTrue(err.toString().contains("--repeats must be at least 1, got 0"), err.toString());
        assertEquals(2, execute(run("--warmups", "-1")));
        assertEquals(2, execute(run("--mixed-coflows", "0")));
        assertEquals(2, execute(run("--coordinator-epoch-ms", "0")));
        assertEquals(2, execute(yarn("--reduces", "0")));
        assertTrue(err.toString().contains("bin/courier bench netemu-yarn: --reduces must be at least 1, got 0"),
                err.toString());
        assertEquals(2, execute(yarn("--rows", "999")));
        assertEquals(2, execute(yarn("--gen-maps", "0")));
        assertEquals(2, execute(yarn("--repeats", "abc")));
        assertTrue(err.toString().contains("Invalid value for option '--repeats'"), err.toString());
    }

    @Test
    void helpNeedsNoneOfTheOptionsTheLauncherPasses() {
        assertEquals(0, execute("yarn-terasort", "--help"));
        assertEquals(0, execute("run", "--help"));
    }

    @Test
    void familiesDefaultToEveryFamilyAndRefuseAnEmptyList() {
        assertEquals(Plans.FAMILIES.size(), Plans.families(null).size());
        assertTrue(Plans.families(null).containsAll(Plans.FAMILIES));
        assertEquals(List.of("bulk"), Plans.families(List.of("bulk")));
        assertThrows(IllegalArgumentException.class, () -> Plans.families(List.of()));
    }
}
