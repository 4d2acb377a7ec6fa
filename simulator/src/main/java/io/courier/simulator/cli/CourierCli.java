package io.courier.simulator.cli;

import io.courier.scheduler.registry.SchedulerRegistry;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code courier} command line: {@code bin/courier} runs this class. Subcommands do the work
 * ({@code simulate} first); bad input exits with {@link #EXIT_USAGE} after one line on stderr.
 */
@Command(name = "courier",
        description = "Courier: coflow scheduling for the Hadoop shuffle. Run 'courier <command> --help' for details.",
        subcommands = {SimulateCommand.class, CommandLine.HelpCommand.class})
public final class CourierCli implements Runnable {
    /** Success. */
    public static final int EXIT_OK = 0;
    /** A failure that is not the user's input (a bug, an I/O error while running). */
    public static final int EXIT_FAILURE = 1;
    /** Bad input: unknown option or scheduler, malformed number, missing file. */
    public static final int EXIT_USAGE = 2;

    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required: "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** The configured command line; output goes to {@code out}, messages and progress to {@code err}. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new CourierCli());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        CommandSpec simulate = cl.getSubcommands().get("simulate").getCommandSpec();
        List<String> footer = new ArrayList<>(Arrays.asList(
                SimulateCommand.schedulerHelp(SchedulerRegistry.standard(), SimulationDefaults.standard())));
        footer.addAll(Arrays.asList(simulate.usageMessage().footer()));
        simulate.usageMessage().footer(footer.toArray(new String[0]));
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine where = ex.getCommandLine();
            String hint = "";
            if (ex instanceof CommandLine.UnmatchedArgumentException) {
                List<String> s = ((CommandLine.UnmatchedArgumentException) ex).getSuggestions();
                if (!s.isEmpty()) {
                    hint = "; did you mean " + String.join(" or ", s) + "?";
                }
            }
            where.getErr().println(name(where) + ": " + ex.getMessage() + hint + " (see '" + name(where)
                    + " --help')");
            where.getErr().flush();
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, where, parseResult) -> {
            if (ex instanceof UsageException) {
                where.getErr().println(name(where) + ": " + ex.getMessage());
                where.getErr().flush();
                return EXIT_USAGE;
            }
            where.getErr().println(name(where) + ": failed: " + ex);
            ex.printStackTrace(where.getErr());
            where.getErr().flush();
            return EXIT_FAILURE;
        });
        return cl;
    }

    /** Runs the command line in this JVM and returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        int code = commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static String name(CommandLine cl) {
        return cl.getCommandSpec().qualifiedName();
    }

    public static void main(String[] args) {
        // Plots are drawn into images: never try to open a display.
        System.setProperty("java.awt.headless", "true");
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(run(out, err, args));
    }
}
