package io.courier.bench.netemu;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The YARN cluster's generated configuration (what bench/netemu/yarn-cluster.sh starts the daemons with), read
 * back through Hadoop's own Configuration, the benchmark's PID file and its summary. No cluster, no root.
 */
@Timeout(30)
class YarnClusterConfTest {
    @TempDir
    Path tmp;

    private static Configuration load(Path dir, String... files) {
        Configuration c = new Configuration(false);
        for (String f : files) {
            c.addResource(new org.apache.hadoop.fs.Path(dir.resolve(f).toUri()));
        }
        return c;
    }

    @Test
    void everyHostAdvertisesItsOwnAddressAndRunsCourier() throws IOException {
        Path work = tmp.resolve("work");
        new YarnClusterConf(4, "10.202.0", work, "/w/conf/h1:/w/lib/a.jar", 1536).writeAll();
        for (int h = 1; h <= 4; h++) {
            Path dir = work.resolve("conf/h" + h);
            Configuration c = load(dir, "core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml");
            assertEquals("hdfs://10.202.0.1:8020", c.get("fs.defaultFS"), "host " + h);
            assertEquals("10.202.0.1", c.get("yarn.resourcemanager.hostname"));
            assertEquals("10.202.0." + h, c.get("yarn.nodemanager.hostname"));
            assertEquals("10.202.0." + h + ":9866", c.get("dfs.datanode.address"));
            assertEquals("false", c.get("dfs.namenode.datanode.registration.ip-hostname-check"));
            assertEquals("io.courier.shuffle.nm.CourierShuffleHandler",
                    c.get("yarn.nodemanager.aux-services.mapreduce_shuffle.class"));
            assertEquals("13563", c.get("courier.proxy.port"));
            assertEquals("/w/conf/h1:/w/lib/a.jar", c.get("yarn.application.classpath"));
            assertEquals("/w/conf/h1:/w/lib/a.jar", c.get("mapreduce.application.classpath"));
            assertEquals(work.resolve("h" + h + "/nm-local").toString(), c.get("yarn.nodemanager.local-dirs"));
            assertTrue(c.get("mapreduce.reduce.java.opts").contains("--add-opens=java.base/java.lang=ALL-UNNAMED"));
            // Jobs opt in to Courier themselves: the cluster default is the stock shuffle.
            assertEquals(null, c.get(YarnClusterConf.CONSUMER_KEY));
            assertTrue(Files.readString(dir.resolve("log4j.properties")).contains("${hadoop.log.file}"));
        }
    }

    @Test
    void badSettingsAreRejectedWithTheReason() {
        Path work = tmp.toAbsolutePath();
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new YarnClusterConf(1, "10.202.0", work, "cp", 1536)).getMessage().contains("hosts"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new YarnClusterConf(4, "10.202", work, "cp", 1536)).getMessage().contains("subnet"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new YarnClusterConf(4, "10.202.0", Path.of("rel"), "cp", 1536)).getMessage()
                .contains("absolute"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new YarnClusterConf(4, "10.202.0", work, "cp", 512)).getMessage().contains("memory"));
    }

    @Test
    void pidFileLinesAreReadAndBadLinesNamed() throws IOException {
        Path f = tmp.resolve("pids");
        Files.writeString(f, "101 namenode 1\n102 nodemanager 1\n\n103 nodemanager 2\n");
        List<String[]> rows = YarnTeraSortBench.readPidFile(f);
        assertEquals(3, rows.size());
        assertEquals("nodemanager", rows.get(2)[1]);
        Files.writeString(f, "101 namenode\n");
        assertTrue(assertThrows(IOException.class, () -> YarnTeraSortBench.readPidFile(f)).getMessage()
                .contains("line 1"));
    }

    @Test
    void summaryKeepsInvalidRunsOutOfTheValidRowsAndGivesPerRepeatRatios() {
        YarnRunRecord stock = record(0, "stock", 60, 20, 300, true);
        YarnRunRecord courier = record(0, "courier", 45, 10, 30, true);
        YarnRunRecord badStock = record(1, "stock", 200, 150, 9000, false);
        YarnRunRecord courier1 = record(1, "courier", 50, 12, 40, true);
        String md = YarnReport.summary(Map.of("hosts", 4), List.of(stock, courier, badStock, courier1));
        assertTrue(md.contains("4 runs, 3 valid"), md);
        // Valid rows: stock has only repeat 0 (60 s); all rows: 60/130/200.
        assertTrue(md.contains("| job s | 60.0/60.0/60.0 | 45.0/47.5/50.0 |"), md);
        assertTrue(md.contains("| job s | 60.0/130.0/200.0 | 45.0/47.5/50.0 |"), md);
        assertTrue(md.contains("| 0 | 0.750 | 0.500 | 30 / 300 |"), md);
        assertTrue(md.contains("| max shuffle conns/pair | 2/2/2 | 2/2/2 |"), md);
        assertTrue(md.contains("| 12 | 6, 2 | yes | yes |"), md);
        assertTrue(YarnReport.csvLine(badStock).endsWith(",false,\"under load\""), YarnReport.csvLine(badStock));
    }

    private static YarnRunRecord record(int repeat, String mode, double job, double shuffle, long drops,
                                        boolean valid) {
        return new YarnRunRecord(repeat, mode, "job_1_000" + repeat, "t", job, shuffle, shuffle * 4, 100_000_000,
                8, 4, 0, drops, 100_000, 0, drops, 1, 0, 0, 10, 12, 4, 6, 2, 1.5, 0.2, 0.3, 0.05, 1.0, true, "abc",
                true, valid, valid ? List.of() : List.of("under load"));
    }
}
