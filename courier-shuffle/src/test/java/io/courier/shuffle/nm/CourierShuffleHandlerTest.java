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
import io.courier.shuffle.service.ProxyPortRule;
import io.courier.shuffle.service.ServiceMetadata;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handler started stand-alone, as the NodeManager would start it, and fetched from by a second proxy. */
@Timeout(120)
class CourierShuffleHandlerTest {
    static final long CLUSTER_TS = 1795339711470L;
    static final ApplicationId APP = ApplicationId.newInstance(CLUSTER_TS, 2);
    static final String JOB = "job_1795339711470_0002";
    static final String MAP = "attempt_1795339711470_0002_m_000001_0";
    static final byte[] SECRET = "8-bytes!".getBytes(StandardCharsets.US_ASCII);

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

    private Configuration nmConf(File localDir) {
        Configuration c = new Configuration(false);
        c.set("yarn.nodemanager.address", "localhost:0");
        c.set("yarn.nodemanager.local-dirs", localDir.getAbsolutePath());
        c.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
        c.set("courier.proxy.port", "-1");
        c.set("courier.proxy.port-offset", "1");
        return c;
    }

    private CourierShuffleHandler start(Configuration conf) {
        CourierShuffleHandler h = new CourierShuffleHandler();
        h.init(conf);
        h.start();
        return h;
    }

    /** What the MR AM sends the service for a job: the job token whose password is the shuffle secret. */
    static ByteBuffer jobTokenData(String job, byte[] secret) throws IOException {
        JobTokenIdentifier id = new JobTokenIdentifier(new Text(job));
        Token<JobTokenIdentifier> token = new Token<>(id.getBytes(), secret, id.getKind(), new Text("shuffle"));
        return ShuffleHandler.serializeServiceData(token);
    }

    private CourierProxy startClient() throws InterruptedException, java.net.BindException {
        CourierProxy p = new CourierProxy(ProxyConfig.defaults(), new InMemorySecrets(),
                new DirectoryMapOutputLocator(new File(tmp, "client-outputs")));
        p.start();
        return p;
    }

    @Test
    void servesMapOutputsOfItsNodeToAnotherProxy() throws Exception {
        File local = new File(tmp, "nm-local");
        MapOutputFiles files = NodeManagerMapOutputLocatorTest.writeNmOutput(local, "alice", APP.toString(), MAP, 4);
        handler = start(nmConf(local));

        ServiceMetadata meta = ServiceMetadata.decode(handler.getMetaData());
        assertNotNull(meta, "metadata carries Courier's magic");
        assertEquals(ProxyPortRule.offset(1), meta.rule());
        assertEquals(meta.shufflePort() + 1, meta.proxyPort());
        assertEquals(meta.shufflePort(), ShuffleHandler.deserializeMetaData(handler.getMetaData()), "AM's view");
        assertEquals("localhost:" + meta.proxyPort(), handler.proxy().nodeId());

        ByteBuffer data = jobTokenData(JOB, SECRET);
        handler.initializeApplication(new ApplicationInitializationContext("alice", APP, data.duplicate()));
        // Once per task container: a second call must change nothing.
        handler.initializeApplication(new ApplicationInitializationContext("alice", APP, data.duplicate()));

        client = startClient();
        String peer = "localhost:" + meta.proxyPort();
        HadoopMapOutputs verify = new HadoopMapOutputs(new File(tmp, "unused"));
        for (int partition = 0; partition < 4; partition++) {
            try (SegmentStream s = client.fetch(peer, JOB, MAP, partition, SECRET)) {
                byte[] got = ProxyCluster.readAll(s);
                assertArrayEquals(verify.expectedSegment(files, partition), got, "partition " + partition);
                verify.verifyChecksum(got);
            }
        }
        assertEquals(4, handler.proxy().serverCounters().streamsServed());

        byte[] wrong = "wrong-8b".getBytes(StandardCharsets.US_ASCII);
        FetchException e = assertThrows(FetchException.class, () -> fetchAll(client, peer, JOB, MAP, 0, wrong));
        assertEquals(ErrorCode.AUTHENTICATION_FAILED, e.code());
        assertEquals(Long.valueOf(1), handler.proxy().serverCounters().refusedByCode()
                .get(ErrorCode.AUTHENTICATION_FAILED));

        Map<String, Number> m = metrics(handler.serviceMetadata().proxyPort());
        long bytes = 0;
        for (int partition = 0; partition < 4; partition++) {
            bytes += verify.expectedSegment(files, partition).length;
        }
        assertEquals(bytes, m.get("BytesSent").longValue());
        assertEquals(4L, m.get("SegmentsServed").longValue());
        assertEquals(1L, m.get("FetchesRefused").longValue());
        assertEquals(1L, m.get("FetchesRefused_AUTHENTICATION_FAILED").longValue());
        assertEquals(0L, m.get("FetchesRefused_UNKNOWN_JOB").longValue());
        assertEquals(1L, m.get("PeerConnectionsAccepted").longValue());
        assertEquals(1L, m.get("PeerConnectionsOpen").longValue());
        assertEquals(1L, m.get("PeersServed").longValue());
        Map<String, Number> fetched = metrics(client);
        assertEquals(bytes, fetched.get("BytesReceived").longValue());
        assertEquals(4L, fetched.get("SegmentsFetched").longValue());
        assertTrue(fetched.get("BlocksReceived").longValue() >= 4L);

        handler.stopApplication(new ApplicationTerminationContext(APP));
        FetchException gone = assertThrows(FetchException.class, () -> fetchAll(client, peer, JOB, MAP, 0, SECRET));
        assertEquals(ErrorCode.UNKNOWN_JOB, gone.code(), "the secret left with the application");
    }

    /** One snapshot of the handler's metrics source, found the way integration tests find it. */
    private static Map<String, Number> metrics(int proxyPort) {
        MetricsSource src = DefaultMetricsSystem.instance().getSource(CourierProxyMetrics.sourceName(proxyPort));
        assertNotNull(src);
        return snapshot(src);
    }

    private static Map<String, Number> metrics(CourierProxy p) {
        return snapshot(new CourierProxyMetrics(p, p.nodeId()));
    }

    private static Map<String, Number> snapshot(MetricsSource src) {
        MetricsCollectorImpl c = new MetricsCollectorImpl();
        src.getMetrics(c, true);
        Map<String, Number> m = new HashMap<>();
        for (MetricsRecordImpl r : c.getRecords()) {
            assertEquals("CourierProxy", r.name());
            assertEquals("courier", r.context());
            for (AbstractMetric metric : r.metrics()) {
                m.put(metric.name(), metric.value());
            }
        }
        return m;
    }

    private static byte[] fetchAll(CourierProxy p, String peer, String job, String map, int partition, byte[] secret)
            throws IOException, InterruptedException {
        try (SegmentStream s = p.fetch(peer, job, map, partition, secret)) {
            return ProxyCluster.readAll(s);
        }
    }

    @Test
    void unknownOutputIsRefusedWithoutBytes() throws Exception {
        File local = new File(tmp, "nm-local");
        handler = start(nmConf(local));
        handler.initializeApplication(new ApplicationInitializationContext("alice", APP, jobTokenData(JOB, SECRET)));
        client = startClient();
        String peer = "localhost:" + handler.serviceMetadata().proxyPort();
        FetchException e = assertThrows(FetchException.class, () -> fetchAll(client, peer, JOB, MAP, 0, SECRET));
        assertEquals(ErrorCode.NO_SUCH_MAP_OUTPUT, e.code());
    }

    @Test
    void publishesMetricsWhileStarted() throws Exception {
        handler = start(nmConf(new File(tmp, "nm-local")));
        String name = CourierProxyMetrics.sourceName(handler.serviceMetadata().proxyPort());
        MetricsSource source = DefaultMetricsSystem.instance().getSource(name);
        assertNotNull(source, "metrics source " + name + " registered");
        assertTrue(((CourierProxyMetrics) source).proxy() == handler.proxy(), "tests reach the live proxy");
        handler.stop();
        assertNull(DefaultMetricsSystem.instance().getSource(name), "unregistered on stop");
        handler = null;
    }

    @Test
    void stopReleasesBothPorts() throws Exception {
        handler = start(nmConf(new File(tmp, "nm-local")));
        ServiceMetadata meta = handler.serviceMetadata();
        handler.stop();
        assertEquals(Service.STATE.STOPPED, handler.getServiceState());
        assertNull(handler.proxy());
        handler = null;
        assertTrue(becomesFree(meta.shufflePort()), "shuffle port released");
        assertTrue(becomesFree(meta.proxyPort()), "proxy port released");
    }

    /**
     * Whether {@code port} can be bound within 10 s. A closed NIO server channel releases its socket when its
     * selector deregisters the key, on the event loop, possibly just after the close future completed.
     */
    private static boolean becomesFree(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!PortPairPicker.isFree(port)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    @Test
    void aLostBindRaceOnTheProxyPortIsRetriedWithAnotherPair() throws Exception {
        int first = PortPairPicker.pick(1);
        try (ServerSocket thief = new ServerSocket()) {
            thief.bind(new InetSocketAddress(first + 1)); // someone takes the proxy port after it was picked
            int[] calls = {0};
            handler = new CourierShuffleHandler(offset -> ++calls[0] == 1 ? first : PortPairPicker.pick(offset));
            handler.init(nmConf(new File(tmp, "nm-local")));
            handler.start();
            assertEquals(2, calls[0], "picked a second pair");
            ServiceMetadata meta = handler.serviceMetadata();
            assertTrue(meta.shufflePort() != first);
            assertEquals(meta.shufflePort() + 1, meta.proxyPort());
            assertTrue(becomesFree(first), "the first shuffle port was released");
            assertEquals(meta.shufflePort(), ShuffleHandler.deserializeMetaData(handler.getMetaData()));
        }
    }

    @Test
    void twoHandlersInOneJvmGetDistinctPortPairs() throws Exception {
        handler = start(nmConf(new File(tmp, "nm-0")));
        CourierShuffleHandler second = start(nmConf(new File(tmp, "nm-1")));
        try {
            ServiceMetadata a = handler.serviceMetadata();
            ServiceMetadata b = second.serviceMetadata();
            assertTrue(a.shufflePort() != b.shufflePort() && a.proxyPort() != b.proxyPort());
            assertTrue(a.proxyPort() != b.shufflePort() && b.proxyPort() != a.shufflePort());
            assertNotNull(DefaultMetricsSystem.instance().getSource(CourierProxyMetrics.sourceName(b.proxyPort())));
        } finally {
            second.stop();
        }
    }

    @Test
    void aLostBindRaceOnTheShufflePortClosesTheProxyAndRetriesWithAnotherPair() throws Exception {
        int first = PortPairPicker.pick(1);
        try (ServerSocket thief = new ServerSocket()) {
            thief.bind(new InetSocketAddress(first)); // someone takes the shuffle port after it was picked
            int[] calls = {0};
            handler = new CourierShuffleHandler(offset -> ++calls[0] == 1 ? first : PortPairPicker.pick(offset));
            handler.init(nmConf(new File(tmp, "nm-local")));
            handler.start();
            assertEquals(2, calls[0], "picked a second pair");
            ServiceMetadata meta = handler.serviceMetadata();
            assertTrue(meta.shufflePort() != first);
            assertEquals(meta.shufflePort() + 1, meta.proxyPort());
            assertTrue(becomesFree(first + 1), "the proxy bound for the first pair was closed");
        }
    }

    @Test
    void takenProxyPortFailsTheStartWithTheReason() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            Configuration conf = nmConf(new File(tmp, "nm-local"));
            conf.set("courier.proxy.port", Integer.toString(taken.getLocalPort()));
            CourierShuffleHandler h = new CourierShuffleHandler();
            h.init(conf);
            Exception e = assertThrows(Exception.class, h::start);
            String message = String.valueOf(e.getMessage()) + " / " + e.getCause();
            assertTrue(message.contains("Courier proxy could not start") && message.contains(
                    Integer.toString(taken.getLocalPort())), message);
            assertEquals(Service.STATE.STOPPED, h.getServiceState());
            assertNull(h.proxy());
        }
    }

    @Test
    void unknownSettingFailsInit() {
        Configuration conf = nmConf(new File(tmp, "nm-local"));
        conf.set("courier.proxy.no.such.key", "1");
        CourierShuffleHandler h = new CourierShuffleHandler();
        Exception e = assertThrows(Exception.class, () -> h.init(conf));
        assertTrue(String.valueOf(e.getMessage()).contains("courier.proxy.no.such.key"), e.getMessage());
    }

    @Test
    void prefersTheNodeManagersPathHandlerAndFallsBackToLocalDirs() throws Exception {
        CourierShuffleHandler h = new CourierShuffleHandler();
        h.init(nmConf(new File(tmp, "nm-local")));
        assertTrue(h.getAuxiliaryLocalPathHandler() instanceof LocalDirsPathHandler, "fallback when none was given");
        LocalDirsPathHandler nmOwn = new LocalDirsPathHandler(new Configuration(false));
        h.setAuxiliaryLocalPathHandler(nmOwn);
        assertTrue(h.getAuxiliaryLocalPathHandler() == nmOwn);
    }

    @Test
    void jobIdOfApplication() {
        assertEquals(JOB, CourierShuffleHandler.jobOf(APP));
    }
}
