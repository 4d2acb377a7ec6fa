package io.courier.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.courier.shuffle.nm.CourierShuffleHandler;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeManager restarted with work-preserving recovery, and a NodeManager killed, while a Courier job shuffles
 * from it (issue 9, "Node loss"). One mini cluster of three {@link RecoverableNodeManager}s for both tests; the
 * restart runs first (it leaves all three nodes up), the kill last.
 *
 * <p>The trigger, in both tests: reducers start only when every map has finished (slowstart 1.0); the moment all
 * map outputs exist on disk, the node to hit is chosen among those that hold map outputs and do not run the
 * ApplicationMaster, and its shuffle service is stopped. No reducer can have fetched from it yet (none has been
 * launched), so every reducer must deal with the lost node.
 *
 * <p>The reference output is computed here from the input (word counts), not by another job: it costs no cluster
 * time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Bounded but generous: on an idle host each test takes about a minute; on a loaded shared one, several.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class NodeLossTest {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLossTest.class);
    private static final int FILES = 6;
    private static final int REDUCES = 2;
    /** The consumer's log line for a retried source host (HostCopier). */
    private static final String RETRY_LINE = "is unreachable or lost";

    private MiniCourierCluster cluster;
    private ExampleJobs jobs;
    private FileSystem fs;
    private final org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/nodeloss/words");
    private Map<String, Long> expected;

    @BeforeAll
    void startCluster() throws Exception {
        cluster = MiniCourierCluster.startRecoverable("courier-nodeloss", 3, NodeShuffleService.COURIER,
                Path.of("target", "courier-nodeloss-work"));
        LOG.info("TIMING cluster start {} ms", cluster.startMillis());
        jobs = new ExampleJobs(cluster);
        fs = cluster.fileSystem();
        TestData.writeWordFiles(fs, in, FILES, 48 * 1024, 2_000, 11);
        expected = countWords(fs, in);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A Courier word count whose reducers start after the last map, with short fetch-failure timeouts. */
    private JobConf jobConf(boolean fetchRetry, long retryTimeoutMillis) {
        // No speculative attempts: every extra attempt must be the AM's answer to the lost node.
        JobConf conf = cluster.measuredJobConf(true);
        conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
        conf.setBoolean(MRJobConfig.SHUFFLE_FETCH_RETRY_ENABLED, fetchRetry);
        conf.setLong(MRJobConfig.SHUFFLE_FETCH_RETRY_TIMEOUT_MS, retryTimeoutMillis);
        conf.setInt(MRJobConfig.SHUFFLE_FETCH_RETRY_INTERVAL_MS, 500);
        conf.setInt(MRJobConfig.SHUFFLE_CONNECT_TIMEOUT, 5_000);
        conf.setInt(MRJobConfig.SHUFFLE_READ_TIMEOUT, 20_000);
        conf.setLong("courier.reduce.header-timeout.ms", 30_000);
        // One notification per map is enough for the AM to re-run it (stock: 3, costing penalty rounds of 13 s+).
        conf.setInt(MRJobConfig.MAX_FETCH_FAILURES_NOTIFICATIONS, 1);
        // The AM gives up on a dead NodeManager's containers after 20 s instead of YARN's 3 min: what it does then is
        // the same, but a kill that left containers to clean up there held the job (and the suite) 3 min longer.
        conf.setLong(YarnConfiguration.CLIENT_NM_CONNECT_MAX_WAIT_MS, 20_000);
        conf.setLong(YarnConfiguration.CLIENT_NM_CONNECT_RETRY_INTERVAL_MS, 2_000);
        return conf;
    }

    /** Which node the scenario hit, and what it saw. */
    record Hit(int node, Set<String> mapsThere, boolean secretAfterRestart, long downMillis) {
    }

    /**
     * Waits until all {@code FILES} maps of {@code jobId} have finished (no deadline of its own: the job's end
     * interrupts it), and returns a running node holding map outputs that does not run the ApplicationMaster.
     */
    private int awaitMapsAndPickNode(String jobId, AtomicReference<TreeMap<Integer, Set<String>>> seen)
            throws Exception {
        while (true) {
            TreeMap<Integer, Set<String>> byNode = NodeFaults.finishedMaps(cluster, jobId);
            if (NodeFaults.mapCount(byNode) >= FILES) {
                seen.set(byNode);
                for (Map.Entry<Integer, Set<String>> e : byNode.entrySet()) {
                    if (!NodeFaults.runsApplicationMaster(cluster, e.getKey(), jobId)) {
                        return e.getKey();
                    }
                }
                throw new AssertionError("every node with map outputs runs the ApplicationMaster of " + jobId
                        + ": " + byNode);
            }
            Thread.sleep(50); // polling the NodeManagers' disks: nothing to wait on
        }
    }

    @Test
    @Order(1)
    void nodeManagerRestartedWithRecoveryKeepsTheJobsSecretAndItsReducersRetry() throws Exception {
        JobConf conf = jobConf(true, 180_000);
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/nodeloss/restart-out");
        AtomicReference<FaultInjector<Hit>> injector = new AtomicReference<>();
        JobRun run = jobs.wordCount(conf, REDUCES, in, out, jobId -> {
            FaultInjector<Hit> f = new FaultInjector<>("nm-restarter", () -> {
                AtomicReference<TreeMap<Integer, Set<String>>> seen = new AtomicReference<>();
                int node = awaitMapsAndPickNode(jobId, seen);
                RecoverableNodeManager nm = cluster.recoverable(node);
                long t0 = System.nanoTime();
                nm.kill();
                LOG.info("Killed {} holding maps {} of {}; waiting for a reducer to retry it", nm,
                        seen.get().get(node), jobId);
                // Restart once a reducer has found the node down and is retrying: that is the case under test.
                long deadline = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(5);
                while (NodeFaults.containerLogLines(cluster, jobId, RETRY_LINE).isEmpty()
                        && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200); // polling the reducers' logs
                }
                nm.restart();
                long down = (System.nanoTime() - t0) / 1_000_000;
                boolean secret = NodeFaults.knowsJobSecret(cluster, node, jobId);
                LOG.info("Restarted {} after {} ms down; job secret recovered: {}", nm, down, secret);
                return new Hit(node, seen.get().get(node), secret, down);
            });
            injector.set(f);
            return f;
        });
        LOG.info("TIMING restart {}", run);
        Hit hit = injector.get().outcome()
                .orElseThrow(() -> new AssertionError("no NodeManager was restarted; the test proved nothing"));
        logAttempts(run);
        LOG.info("Restart: node {} with maps {} down {} ms; SOURCE_RETRIES {}, segments via proxy {}, via HTTP {}",
                hit.node(), hit.mapsThere(), hit.downMillis(), run.courier("SOURCE_RETRIES"),
                run.courier("PROXY_SEGMENTS"), run.courier("HTTP_FALLBACK_SEGMENTS"));

        assertTrue(run.succeeded(), run::toString);
        assertEquals(expected, readCounts(fs, out), "the output differs from the word counts of the input");
        assertTrue(hit.secretAfterRestart(), "the restarted NodeManager's shuffle service lost the job's secret");
        // The reducers found the node down and retried it instead of failing its maps.
        assertTrue(run.courier("SOURCE_RETRIES") > 0, () -> "no reducer retried the restarting node: " + run);
        assertEquals(FILES, run.attempts().stream().filter(a -> a.type() == TaskType.MAP).count(),
                () -> "a map was re-run or failed although its node came back in time: " + run.attempts());
        assertEquals(0, run.counter(TaskCounter.FAILED_SHUFFLE), "a fetch was counted as failed");
        // Reducers on the restarted node waited for its proxy (fetch retry, the relay socket's stable path), as
        // stock reducers wait for a restarting ShuffleHandler: no reduce attempt failed.
        assertEquals(REDUCES, run.attempts().stream().filter(a -> a.type() == TaskType.REDUCE).count(),
                () -> "a reducer failed or was re-run across its node's restart: " + run.attempts());
        // ... and kept fetching through Courier: the restarted proxy served the node's map outputs.
        assertEquals(0, run.courier("HTTP_FALLBACK_SEGMENTS"), "the restarted node was fetched over HTTP");
        long local = run.courier("LOCAL_SEGMENTS");
        assertEquals((long) FILES * REDUCES, run.courier("PROXY_SEGMENTS") + local,
                "every segment came through a proxy or from a node-local file");
        CourierShuffleHandler restarted = (CourierShuffleHandler) cluster.auxService(hit.node());
        long served = restarted.proxy().serverCounters().streamsServed();
        // Reducers on the restarted node read its maps from their files, at most LOCAL_SEGMENTS of them.
        assertTrue(served >= (long) hit.mapsThere().size() * REDUCES - local, () -> "the restarted proxy served "
                + served + " segments, fewer than the " + hit.mapsThere().size() * REDUCES + " of its maps less the "
                + local + " read node-locally");
    }

    @Test
    @Order(2)
    void nodeManagerKilledDuringShuffleHasItsMapsReRunElsewhere() throws Exception {
        // Fetch retry on (as on a cluster with NodeManager recovery), with a short window: the lost node is
        // retried for 3 s through Courier, then (Courier's HTTP fallback) by Hadoop's fetcher, which reports it.
        JobConf conf = jobConf(true, 3_000);
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/nodeloss/kill-out");
        AtomicReference<FaultInjector<Hit>> injector = new AtomicReference<>();
        JobRun run = jobs.wordCount(conf, REDUCES, in, out, jobId -> {
            FaultInjector<Hit> f = new FaultInjector<>("nm-killer", () -> {
                AtomicReference<TreeMap<Integer, Set<String>>> seen = new AtomicReference<>();
                int node = awaitMapsAndPickNode(jobId, seen);
                RecoverableNodeManager nm = cluster.recoverable(node);
                nm.kill();
                LOG.info("Killed {} holding maps {} of {}", nm, seen.get().get(node), jobId);
                return new Hit(node, seen.get().get(node), false, 0);
            });
            injector.set(f);
            return f;
        });
        LOG.info("TIMING kill {}", run);
        Hit hit = injector.get().outcome()
                .orElseThrow(() -> new AssertionError("no NodeManager was killed; the test proved nothing"));
        logAttempts(run);
        List<String> reports = NodeFaults.containerLogLines(cluster, run.jobId(), "Reporting fetch failure for");
        LOG.info("Kill: node {} with maps {}; FAILED_SHUFFLE {}, SOURCE_RETRIES {}, fetch-failure reports {}",
                hit.node(), hit.mapsThere(), run.counter(TaskCounter.FAILED_SHUFFLE), run.courier("SOURCE_RETRIES"),
                reports.size());

        assertTrue(run.succeeded(), run::toString);
        assertEquals(expected, readCounts(fs, out), "the output differs from the word counts of the input");
        // The reducers reported the lost maps to the AM, which failed those attempts and ran them again elsewhere.
        assertFalse(reports.isEmpty(), "no reducer reported a fetch failure to the ApplicationMaster");
        assertTrue(run.counter(TaskCounter.FAILED_SHUFFLE) > 0, "no failed fetch was counted");
        int lostPort = cluster.shufflePort(hit.node());
        for (String task : hit.mapsThere()) {
            String prefix = task.replace("task_", "attempt_") + "_";
            List<AttemptSummary> attempts = run.attempts().stream()
                    .filter(a -> a.attemptId().startsWith(prefix)).toList();
            assertTrue(attempts.stream().anyMatch(a -> "FAILED".equals(a.state()) && a.shufflePort() == lostPort
                            && a.error().toLowerCase(java.util.Locale.ROOT).contains("fetch")),
                    () -> "map " + task + " of the lost node was not failed for fetch failures: " + attempts);
            assertTrue(attempts.stream().anyMatch(a -> a.succeeded() && a.shufflePort() != lostPort),
                    () -> "map " + task + " of the lost node did not succeed elsewhere: " + attempts);
        }
        assertTrue(run.attempts().stream().filter(a -> a.type() == TaskType.MAP).count() > FILES,
                "no map ran twice");
    }

    private static void logAttempts(JobRun run) {
        for (AttemptSummary a : run.attempts()) {
            LOG.info("attempt {} {} on shuffle port {}: {}", a.attemptId(), a.state(), a.shufflePort(), a.error());
        }
    }

    /** Word counts of the text files under {@code dir}, split on whitespace as WordCount's mapper does. */
    private static Map<String, Long> countWords(FileSystem fs, org.apache.hadoop.fs.Path dir) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (FileStatus st : fs.listStatus(dir)) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(st.getPath()),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    java.util.StringTokenizer words = new java.util.StringTokenizer(line);
                    while (words.hasMoreTokens()) {
                        counts.merge(words.nextToken(), 1L, Long::sum);
                    }
                }
            }
        }
        return counts;
    }

    /** The {@code word<TAB>count} lines of a word count's part files; a word in two parts fails. */
    private static Map<String, Long> readCounts(FileSystem fs, org.apache.hadoop.fs.Path dir) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (FileStatus st : fs.listStatus(dir)) {
            if (!st.getPath().getName().startsWith("part-")) {
                continue;
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(st.getPath()),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    int tab = line.indexOf('\t');
                    Long old = counts.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
                    if (old != null) {
                        throw new AssertionError("word " + line.substring(0, tab) + " appears twice in " + dir);
                    }
                }
            }
        }
        return counts;
    }
}
