package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.auth.InMemorySecrets;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.source.DirectoryMapOutputLocator;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.HadoopMapOutputs;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handler restarted with a recovery store (what a NodeManager with {@code yarn.nodemanager.recovery.enabled}
 * gives its aux services): a job's secret, recorded by {@code initializeApplication} before the restart, is
 * recovered by ShuffleHandler and used by the new proxy, on the same ports; without the store it is gone. The
 * mini-cluster version of this is {@code NodeLossTest} in integration-tests.
 */
@Timeout(120)
class CourierShuffleHandlerRecoveryTest {
    @TempDir
    File tmp;

    private CourierShuffleHandler handler;
    private CourierProxy client;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (handler != null) {
            handler.stop();
        }
    }

    private Configuration nmConf(File localDir, int shufflePort) {
        Configuration c = new Configuration(false);
        c.set("yarn.nodemanager.address", "localhost:0");
        c.set("yarn.nodemanager.local-dirs", localDir.getAbsolutePath());
        c.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, shufflePort);
        c.set("courier.proxy.port", "-1");
        c.set("courier.proxy.port-offset", "1");
        return c;
    }

    private static CourierShuffleHandler start(Configuration conf, File recovery) {
        CourierShuffleHandler h = new CourierShuffleHandler();
        if (recovery != null) {
            h.setRecoveryPath(new org.apache.hadoop.fs.Path(recovery.getAbsolutePath()));
        }
        h.init(conf);
        h.start();
        return h;
    }

    private static byte[] fetch(CourierProxy p, String peer, int partition) throws IOException, InterruptedException {
        try (SegmentStream s = p.fetch(peer, CourierShuffleHandlerTest.JOB, CourierShuffleHandlerTest.MAP, partition,
                CourierShuffleHandlerTest.SECRET)) {
            return ProxyCluster.readAll(s);
        }
    }

    @Test
    void aRestartedHandlerServesWithTheSecretItRecovered() throws Exception {
        File local = new File(tmp, "nm-local");
        File recovery = new File(tmp, "recovery");
        assertTrue(recovery.mkdirs()); // the NodeManager creates its aux services' recovery dirs
        MapOutputFiles files = NodeManagerMapOutputLocatorTest.writeNmOutput(local, "alice",
                CourierShuffleHandlerTest.APP.toString(), CourierShuffleHandlerTest.MAP, 2);
        int shufflePort = PortPairPicker.pick(1);
        handler = start(nmConf(local, shufflePort), recovery);
        handler.initializeApplication(new ApplicationInitializationContext("alice", CourierShuffleHandlerTest.APP,
                CourierShuffleHandlerTest.jobTokenData(CourierShuffleHandlerTest.JOB,
                        CourierShuffleHandlerTest.SECRET)));
        String peer = "localhost:" + (shufflePort + 1);
        client = new CourierProxy(ProxyConfig.defaults(), new InMemorySecrets(),
                new DirectoryMapOutputLocator(new File(tmp, "client-outputs")));
        client.start();
        HadoopMapOutputs verify = new HadoopMapOutputs(new File(tmp, "unused"));
        assertArrayEquals(verify.expectedSegment(files, 0), fetch(client, peer, 0), "before the restart");

        handler.stop();
        // A new instance, as a restarted NodeManager creates: no initializeApplication for the job this time.
        handler = start(nmConf(local, shufflePort), recovery);
        assertEquals(shufflePort + 1, handler.serviceMetadata().proxyPort(), "the same proxy port");
        assertArrayEquals(verify.expectedSegment(files, 1), fetch(client, peer, 1),
                "served after the restart with the recovered secret");
        assertEquals(1, handler.proxy().serverCounters().streamsServed());

        handler.stop();
        handler = start(nmConf(local, shufflePort), null);
        FetchException e = assertThrows(FetchException.class, () -> fetch(client, peer, 0));
        assertEquals(ErrorCode.UNKNOWN_JOB, e.code(), "without a recovery store the secret is gone");
    }
}
