package io.courier.shuffle.reduce;

import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.Eventually;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Maps that ran on the reducer's own node (node 0 of the harness) are read from their files in the task's local
 * dirs, where YARN puts them ({@code output/<mapAttempt>/file.out} under {@code mapreduce.cluster.local.dir}), and
 * verified like every segment; other nodes' maps, and local ones whose files are not there, go through the proxy.
 */
@Timeout(120)
class NodeLocalReadTest {
    @TempDir
    File dir;

    /** Moves node 0's files of map {@code m} from where its proxy serves them to the task's local dirs. */
    private static void moveToTaskLocalDirs(ReduceHarness h, MapOutputFiles f, int map) throws IOException {
        File out = new File(h.conf.get("mapreduce.cluster.local.dir"), "output/" + ReduceHarness.mapAttempt(map, 0));
        assertTrue(out.mkdirs());
        Files.move(f.data().toPath(), new File(out, "file.out").toPath(), StandardCopyOption.ATOMIC_MOVE);
        Files.move(f.index().toPath(), new File(out, "file.out.index").toPath(), StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void aNodeLocalMapIsReadFromItsFilesAndTheOthersThroughTheProxy() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 4)) {
            for (int m = 0; m < 4; m++) {
                MapOutputFiles f = h.writeMap(m % 2, m, 0, m == 0 ? 1000 : 30, m == 0 ? 1000 : 200);
                h.succeeded(m % 2, m, 0);
                if (m % 2 == 0) {
                    // Only the task's local dirs have them now: through the proxy they would not be found.
                    moveToTaskLocalDirs(h, f, m);
                }
            }
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()),
                    "records merged = records the maps wrote, the local ones included");
            assertEquals(2, h.counter(CourierCounter.LOCAL_SEGMENTS));
            assertEquals(h.expectedSegment(0).length + h.expectedSegment(2).length,
                    h.counter(CourierCounter.LOCAL_BYTES));
            assertEquals(2, h.counter(CourierCounter.PROXY_SEGMENTS), "maps 1 and 3, on node 1");
            assertTrue(c.gate.descriptions.contains("DISK"), "map 0's large segment went to disk, read locally");
            assertEquals(h.expectedBytes(), h.counter(TaskCounter.REDUCE_SHUFFLE_BYTES));
            assertEquals(0, h.counter(TaskCounter.FAILED_SHUFFLE));
        }
    }

    @Test
    void switchedOffEveryMapGoesThroughTheProxy() throws Exception {
        assertEverySegmentThroughTheProxy(true, false);
    }

    @Test
    void aNodeLocalMapWhoseFilesAreNotInTheTaskDirsComesThroughTheProxy() throws Exception {
        assertEverySegmentThroughTheProxy(false, true);
    }

    /**
     * Node 0's map, with its files in the task's local dirs ({@code copyToTaskDirs}) or only where its proxy serves
     * them, and node-local reads switched on or off: both maps come through the proxy.
     */
    private void assertEverySegmentThroughTheProxy(boolean copyToTaskDirs, boolean nodeLocalReads) throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            for (int m = 0; m < 2; m++) {
                MapOutputFiles f = h.writeMap(m, m, 0, 20, 200);
                h.succeeded(m, m, 0);
                if (m == 0 && copyToTaskDirs) {
                    File out = new File(h.conf.get("mapreduce.cluster.local.dir"), "output/"
                            + ReduceHarness.mapAttempt(0, 0));
                    assertTrue(out.mkdirs());
                    Files.copy(f.data().toPath(), new File(out, "file.out").toPath());
                    Files.copy(f.index().toPath(), new File(out, "file.out.index").toPath());
                }
            }
            h.conf.setBoolean(ReduceConfig.NODE_LOCAL_READS, nodeLocalReads);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(c.runAndClose()));
            assertEquals(0, h.counter(CourierCounter.LOCAL_SEGMENTS));
            assertEquals(2, h.counter(CourierCounter.PROXY_SEGMENTS));
        }
    }

    @Test
    void aCorruptNodeLocalSegmentIsAReadErrorOfItsMapAndNeverMerged() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 2, 2)) {
            MapOutputFiles local = h.writeMap(0, 0, 0, 100, 300);
            h.succeeded(0, 0, 0);
            h.writeMap(1, 1, 0, 100, 300);
            h.succeeded(1, 1, 0);
            moveToTaskLocalDirs(h, local, 0);
            File data = new File(h.conf.get("mapreduce.cluster.local.dir"),
                    "output/" + ReduceHarness.mapAttempt(0, 0) + "/file.out");
            long at = 100;
            byte original = ReduceHarness.corrupt(data, at);
            TestConsumer c = new TestConsumer(h);
            c.init(h.context());
            try (BackgroundShuffle bg = new BackgroundShuffle(c::runAndClose)) {
                Future<RawKeyValueIterator> run = bg.result;
                TaskAttemptID bad = TaskAttemptID.forName(ReduceHarness.mapAttempt(0, 0));
                Eventually.waitUntil("a fetch-failure report for map 0", () -> h.status.fetchFailed.contains(bad));
                Eventually.waitUntil("the failed shuffle counted", () -> h.counter(TaskCounter.FAILED_SHUFFLE) >= 1);
                assertFalse(run.isDone(), "the shuffle waits for a good copy of map 0");
                ReduceHarness.restore(data, at, original);
                assertArrayEquals(h.expectedDigest(), ReduceHarness.digest(run.get(60, TimeUnit.SECONDS)),
                        "only verified bytes were merged");
                assertEquals(1, h.counter(CourierCounter.LOCAL_SEGMENTS));
            }
        }
    }

    @Test
    void aNodeLocalIndexThatPointsPastItsDataFileIsAReadErrorNamingTheFile() throws Exception {
        try (ReduceHarness h = new ReduceHarness(dir, 1, 1)) {
            MapOutputFiles local = h.writeMap(0, 0, 0, 100, 300);
            h.succeeded(0, 0, 0);
            moveToTaskLocalDirs(h, local, 0);
            File data = new File(h.conf.get("mapreduce.cluster.local.dir"),
                    "output/" + ReduceHarness.mapAttempt(0, 0) + "/file.out");
            try (RandomAccessFile f = new RandomAccessFile(data, "rw")) {
                f.setLength(50); // cut inside partition 0
            }
            NodeLocalOutputs outputs = NodeLocalOutputs.of(h.conf, ReduceHarness.JOB,
                    System.getProperty("user.name"));
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> outputs.open(ReduceHarness.mapAttempt(0, 0), 0));
            assertTrue(e.getMessage().contains(data.getPath()) && e.getMessage().contains(ReduceHarness.JOB),
                    e.getMessage());
            assertEquals(null, outputs.open("attempt_1700000000000_0002_m_000000_0", 0), "another job's map");
            assertEquals(null, outputs.open(ReduceHarness.mapAttempt(5, 0), 0), "a map not on this node");
        }
    }
}
