package io.courier.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WordCount and TeraGen → TeraSort (12 reducers) → TeraValidate on one 3-NodeManager cluster whose NodeManagers
 * run Courier's handler: each job runs once with Courier and once with the stock shuffle (a job that does not opt in, served
 * over HTTP by the same service), and the outputs must be byte-identical. Maps spread over the nodes, so map
 * output crosses nodes; the Courier counters must show that every shuffled byte went through the proxies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CourierShuffleEndToEndTest {
    private static final Logger LOG = LoggerFactory.getLogger(CourierShuffleEndToEndTest.class);
    private static final int NODES = 3;
    private static final long ROWS = 60_000;

    private MiniCourierCluster cluster;
    private ExampleJobs jobs;
    private FileSystem fs;
    private CourierExpectations expect;
    private final org.apache.hadoop.fs.Path teraIn = new org.apache.hadoop.fs.Path("/e2e/tera-in");

    @BeforeAll
    void startCluster() throws Exception {
        // The Courier handler also serves the stock jobs (over HTTP): the "job that does not opt in" case.
        cluster = MiniCourierCluster.start("courier-e2e", NODES, NodeShuffleService.COURIER,
                Path.of("target", "courier-e2e-work"));
        LOG.info("TIMING cluster start {} ms", cluster.startMillis());
        jobs = new ExampleJobs(cluster);
        fs = cluster.fileSystem();
        expect = new CourierExpectations(cluster);
        JobRun gen = jobs.teraGen(ROWS, 6, teraIn);
        LOG.info("TIMING {}", gen);
        assertTrue(gen.succeeded(), gen::toString);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void wordCountWithCourierIsIdenticalToStock() throws Exception {
        org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/e2e/words");
        TestData.writeWordFiles(fs, in, 4, 128 * 1024, 5_000, 42);
        JobRun stock = jobs.wordCount(cluster.jobConf(false), 3, in, new org.apache.hadoop.fs.Path("/e2e/wc-stock"));
        LOG.info("TIMING {}", stock);
        expect.stockShuffle(stock);
        expect.crossedNodes(stock);
        OutputDigest stockOut = OutputDigest.of(fs, new org.apache.hadoop.fs.Path("/e2e/wc-stock"));
        assertEquals(3, stockOut.parts().size(), stockOut::toString);

        JobRun courier = jobs.wordCount(cluster.jobConf(true), 3, in,
                new org.apache.hadoop.fs.Path("/e2e/wc-courier"));
        LOG.info("TIMING {}", courier);
        expect.courierShuffle(courier);
        expect.crossedNodes(courier);
        assertEquals(stockOut, OutputDigest.of(fs, new org.apache.hadoop.fs.Path("/e2e/wc-courier")),
                "word count output with Courier differs from the stock shuffle's");
    }

    /**
     * TeraSort with 12 reducers (so also the many-reducer case): with Courier, TeraValidate must pass, and the
     * output must be byte-identical to the stock shuffle's. The stock output is not validated separately: it is
     * byte-identical to a validated one.
     */
    @Test
    void teraSortWithTwelveReducersIsIdenticalToStockAndValid() throws Exception {
        int reduces = 12;
        org.apache.hadoop.fs.Path stockOutDir = new org.apache.hadoop.fs.Path("/e2e/ts-stock");
        JobRun stock = jobs.teraSort(cluster.jobConf(false), reduces, teraIn, stockOutDir);
        LOG.info("TIMING {}", stock);
        expect.stockShuffle(stock);
        expect.crossedNodes(stock);
        LOG.info("CONNECTIONS stock {}", expect.connections(stock));
        assertEquals(reduces, stock.successful(TaskType.REDUCE).size());
        OutputDigest stockOut = OutputDigest.of(fs, stockOutDir);
        assertEquals(reduces, stockOut.parts().size());
        assertEquals(ROWS * 100, stockOut.bytes(), "TeraSort output must hold every input row");

        org.apache.hadoop.fs.Path courierOutDir = new org.apache.hadoop.fs.Path("/e2e/ts-courier");
        JobRun courier = jobs.teraSort(cluster.jobConf(true), reduces, teraIn, courierOutDir);
        LOG.info("TIMING {}", courier);
        expect.courierShuffle(courier);
        expect.crossedNodes(courier);
        LOG.info("CONNECTIONS Courier {}", expect.connections(courier));
        assertEquals(stock.shuffleBytes(), courier.shuffleBytes(), "both shuffles move the same map output");
        assertEquals(stockOut, OutputDigest.of(fs, courierOutDir),
                "TeraSort output with Courier differs from the stock shuffle's");
        validate(courierOutDir, courierOutDir.getName());
    }

    private ExampleJobs.TeraReport validate(org.apache.hadoop.fs.Path sorted, String tag) throws Exception {
        org.apache.hadoop.fs.Path reportDir = new org.apache.hadoop.fs.Path("/e2e/" + tag + "-validate");
        JobRun v = jobs.teraValidate(sorted, reportDir);
        LOG.info("TIMING {}", v);
        assertTrue(v.succeeded(), v::toString);
        ExampleJobs.TeraReport report = ExampleJobs.readTeraReport(fs, reportDir);
        assertTrue(report.valid(), () -> "TeraValidate found problems in " + sorted + ": " + report.problems());
        return report;
    }
}
