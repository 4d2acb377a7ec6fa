package io.courier.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A map output file corrupted on disk after its map finished and before the reducer fetched it: the fetch must
 * fail its checksum, and the job must then either re-run the map and produce exactly the output of a clean run,
 * or fail with a clear message. Never wrong output. Runs with Courier when its classes are on the class path,
 * otherwise with the stock shuffle (which is what Courier must match).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class CorruptMapOutputTest {
    private static final Logger LOG = LoggerFactory.getLogger(CorruptMapOutputTest.class);

    private MiniCourierCluster cluster;
    private ExampleJobs jobs;
    private FileSystem fs;

    @BeforeAll
    void startCluster() throws Exception {
        cluster = MiniCourierCluster.start("courier-corrupt", 3, NodeShuffleService.COURIER,
                Path.of("target", "courier-corrupt-work"));
        LOG.info("TIMING cluster start {} ms", cluster.startMillis());
        jobs = new ExampleJobs(cluster);
        fs = cluster.fileSystem();
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void corruptedMapOutputIsNeverShuffledIntoTheResult() throws Exception {
        org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/corrupt/words");
        TestData.writeWordFiles(fs, in, 4, 128 * 1024, 3_000, 7);
        org.apache.hadoop.fs.Path cleanOut = new org.apache.hadoop.fs.Path("/corrupt/clean");
        JobRun clean = jobs.wordCount(cluster.jobConf(false), 1, in, cleanOut);
        LOG.info("TIMING {}", clean);
        assertTrue(clean.succeeded(), clean::toString);
        OutputDigest expected = OutputDigest.of(fs, cleanOut);

        JobConf conf = cluster.jobConf(true);
        // Reducers start only when every map has finished, so the corrupter wins the race to the first output.
        conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/corrupt/out");
        AtomicReference<MapOutputCorrupter> corrupter = new AtomicReference<>();
        JobRun run = jobs.wordCount(conf, 1, in, out, jobId -> {
            MapOutputCorrupter c = new MapOutputCorrupter(cluster, jobId);
            corrupter.set(c);
            return c;
        });
        LOG.info("TIMING {}", run);
        MapOutputCorrupter.Corruption corruption = corrupter.get().corrupted()
                .orElseThrow(() -> new AssertionError("no map output was corrupted; the test proved nothing"));
        LOG.info("Corrupted {} at offset {} of {}", corruption.mapAttempt(), corruption.offset(), corruption.file());
        for (AttemptSummary a : run.attempts()) {
            LOG.info("attempt {} {} on {}: {}", a.attemptId(), a.state(), a.shufflePort(), a.error());
        }

        // The reducer noticed: the IFile checksum of the fetched segment did not match.
        assertTrue(new ShuffleLogs(cluster).countLines(run, "ChecksumException") > 0,
                "no checksum error in the reducers' logs: the corrupted segment was never fetched?");
        if (run.succeeded()) {
            assertEquals(expected, OutputDigest.of(fs, out),
                    "the job succeeded after a corrupted map output but its output differs from a clean run");
            // The corrupted output must not have been used: its map was re-run (the corrupted attempt was failed
            // for too many fetch failures and another attempt of the same task succeeded).
            String task = corruption.mapAttempt().substring(0, corruption.mapAttempt().lastIndexOf('_'))
                    .replace("attempt_", "task_");
            boolean rerun = run.successful(TaskType.MAP).stream()
                    .anyMatch(a -> !a.attemptId().equals(corruption.mapAttempt())
                            && a.attemptId().replace("attempt_", "task_").startsWith(task));
            assertTrue(rerun, () -> "the corrupted map " + corruption.mapAttempt() + " was not re-run: "
                    + run.attempts());
        } else {
            assertFalse(run.errorInfo().isBlank(), "a failed job must say why");
            LOG.info("Job failed as allowed: {}", run.errorInfo());
            assertFalse(fs.exists(new org.apache.hadoop.fs.Path(out, "_SUCCESS")), "a failed job left _SUCCESS");
        }
    }
}
