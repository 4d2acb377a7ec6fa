package io.courier.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The long coordinator chaos run ({@code bin/courier chaos-bench}): more jobs and more rounds of
 * {@link CoordinatorChaosRun} than the CI test ({@code CoordinatorChaosTest}) affords. Prints each phase and the
 * verdict; exits non-zero if an output differs or the proxies did not return to the primary.
 */
@Command(name = "chaos-bench", mixinStandardHelpOptions = true,
        description = "Concurrent TeraSorts while the primary coordinator is stopped and restarted repeatedly.")
public final class CoordinatorChaosBenchmark implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--jobs", description = "Concurrent TeraSorts per phase (default: ${DEFAULT-VALUE}).")
    int jobs = 4;

    @Option(names = "--rounds", description = "Chaos phases after the baseline (default: ${DEFAULT-VALUE}).")
    int rounds = 3;

    @Option(names = "--rows", description = "Rows of the (shared) input (default: ${DEFAULT-VALUE}).")
    long rows = 60_000;

    @Option(names = "--reduces", description = "Reducers per job (default: ${DEFAULT-VALUE}).")
    int reduces = 4;

    @Option(names = "--nodes", description = "NodeManagers (default: ${DEFAULT-VALUE}).")
    int nodes = 3;

    @Option(names = "--up-ms", description = "Primary up between stops (default: ${DEFAULT-VALUE}).")
    long upMillis = 4_000;

    @Option(names = "--down-ms", description = "Primary down per stop (default: ${DEFAULT-VALUE}).")
    long downMillis = 3_000;

    @Option(names = "--scheduler", description = "Coordinator scheduler (default: ${DEFAULT-VALUE}).")
    String scheduler = "aalo";

    @Option(names = "--capacity", description = "Each proxy's paced link, bytes/s (default: ${DEFAULT-VALUE}).")
    long capacity = 512 * 1024;

    @Option(names = "--work-dir", description = "Cluster data and logs (default: ${DEFAULT-VALUE}).")
    Path workDir = Path.of("target", "coordinator-chaos");

    private final PrintStream out;

    CoordinatorChaosBenchmark(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CoordinatorChaosBenchmark(System.out)).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        new OptionChecks(spec).atLeast("--jobs", jobs, 1).atLeast("--rounds", rounds, 1).atLeast("--rows", rows, 1)
                .atLeast("--reduces", reduces, 1).atLeast("--nodes", nodes, 2).atLeast("--up-ms", upMillis, 1)
                .atLeast("--down-ms", downMillis, 1).scheduler("--scheduler", scheduler)
                .atLeast("--capacity", capacity, 1);
        Files.createDirectories(workDir);
        Path logFile = workDir.resolve("coordinator-chaos.log").toAbsolutePath();
        DemoLogging.toFile(logFile);
        System.setOut(new PrintStream(Files.newOutputStream(workDir.resolve("coordinator-chaos.stdout.log")), true,
                StandardCharsets.UTF_8));
        out.printf(Locale.ROOT, "# %d TeraSorts of %,d rows at once (%d reducers each), %d NodeManagers, links %,d"
                + " B/s, scheduler %s; primary up %d ms / down %d ms, %d chaos rounds; standby always up; logs %s%n",
                jobs, rows, reduces, nodes, capacity, scheduler, upMillis, downMillis, rounds, logFile);
        CoordinatorChaosRun.Result r = new CoordinatorChaosRun(new CoordinatorChaosRun.Settings(nodes, jobs, rows,
                reduces, rounds, upMillis, downMillis, scheduler, capacity, 50, workDir)).run();
        out.println(r.baseline().line());
        for (CoordinatorChaosRun.Phase p : r.chaos()) {
            out.println(p.line());
        }
        out.printf(Locale.ROOT, "primary stopped %d times in all; longest stall: %.1f s under chaos vs %.1f s"
                + " baseline (shuffle: %.1f s vs %.1f s); outputs %s the reference; after the chaos all proxies"
                + " coordinated within %.1f s (%s), primary lists %d nodes, standby %d%n", r.stops(),
                r.longestChaosStallMillis() / 1000.0, r.baseline().longestStallMillis() / 1000.0,
                r.longestChaosShuffleStallMillis() / 1000.0, r.baseline().longestShuffleStallMillis() / 1000.0,
                r.outputsMatch() ? "all equal" : "DIFFER FROM",
                r.convergeMillis() / 1000.0, String.join(" ", r.modesAfter()), r.primaryNodes(), r.standbyNodes());
        return r.outputsMatch() && r.primaryNodes() == nodes ? 0 : 1;
    }
}
