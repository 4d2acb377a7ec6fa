package io.courier.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.courier.scheduler.model.ClusterState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The snapshot of the real FB trace has the claimed scale; skipped where the trace is absent. */
class FbSnapshotTest {

    @Test
    void busiestInstantOfTheFbTraceHasFbScale() throws IOException {
        // Tests run in the module directory, one level below the project root.
        Path file = Paths.get(System.getProperty(Snapshots.TRACE_PROPERTY, "../" + Snapshots.DEFAULT_TRACE));
        assumeTrue(Files.isRegularFile(file), "FB trace not found at " + file.toAbsolutePath()
                + "; skipping (set -D" + Snapshots.TRACE_PROPERTY + "=<path to FB2010-1Hr-150-0.txt>)");
        BenchmarkSnapshot snapshot = Snapshots.fromTrace(file);
        ClusterState s = snapshot.state();
        assertEquals(150, s.network().hostCount());
        assertTrue(s.coflowCount() >= 50 && s.coflowCount() <= 150, snapshot.describe());
        assertTrue(snapshot.unfinishedFlowCount() >= 10_000, snapshot.describe());
        for (int c = 0; c < s.coflowCount(); c++) {
            assertTrue(s.coflow(c).arrival() <= s.now(), s.coflow(c) + " arrives after the instant");
            assertTrue(s.unfinishedFlowsOf(c).length > 0, s.coflow(c) + " has no unfinished flow");
        }
        System.out.println(snapshot.describe());
    }
}
