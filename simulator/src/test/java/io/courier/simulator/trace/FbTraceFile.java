package io.courier.simulator.trace;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where tests find the public FB trace: {@code -Dcourier.fbTrace=…}, else {@code ../shared/data} of the
 * project root (two levels up from a module). It lives outside the repository, so tests that need it are
 * skipped with this message when it is absent, not failed.
 */
public final class FbTraceFile {
    private static final String DEFAULT_PATH = "../../shared/data/FB2010-1Hr-150-0.txt";

    private FbTraceFile() {
    }

    public static Path path() {
        return Paths.get(System.getProperty("courier.fbTrace", DEFAULT_PATH));
    }

    /** The parsed trace, or {@code null} when the file is absent. */
    public static CoflowTrace readIfPresent() throws IOException {
        return Files.isRegularFile(path()) ? CoflowBenchmarkTraceReader.read(path()) : null;
    }

    /** Skips the calling test, with the reason, when {@code trace} is {@code null}. */
    public static void assumePresent(CoflowTrace trace) {
        assumeTrue(trace != null, "FB trace not found at " + path().toAbsolutePath()
                + "; skipping (set -Dcourier.fbTrace=<path to FB2010-1Hr-150-0.txt>)");
    }
}
