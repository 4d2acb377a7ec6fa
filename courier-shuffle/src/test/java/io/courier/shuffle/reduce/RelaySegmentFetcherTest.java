package io.courier.shuffle.reduce;

import io.courier.shuffle.TestPorts;
import io.courier.shuffle.proxy.client.IncomingSegment;
import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.SegmentHeader;
import io.courier.shuffle.proxy.relay.LocalProxyClient;
import io.courier.shuffle.proxy.relay.RelayClientConfig;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The consumer's view of relay failures: whose fault each one is decides blame and the HTTP fallback. */
@Timeout(60)
class RelaySegmentFetcherTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;

    private static RelaySegmentFetcher taskOn(ProxyCluster c, int node) throws IOException {
        NodeAddress a = NodeAddress.parse(c.id(node));
        return new RelaySegmentFetcher(LocalProxyClient.connect(a.host(), a.port(), RelayClientConfig.defaults()));
    }

    private static IOException failureOf(IncomingSegment s) {
        return assertThrows(IOException.class, () -> {
            SegmentHeader h = s.awaitHeader(10, TimeUnit.SECONDS);
            drain(s.data(), h.compressedLength());
        });
    }

    private static byte[] drain(InputStream in, long n) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int r;
        while (out.size() < n && (r = in.read(buf)) >= 0) {
            out.write(buf, 0, r);
        }
        return out.toByteArray();
    }

    @Test
    void aSourceWithoutProxyIsUnreachableAndAWrongMacIsAReadError() throws Exception {
        try (Socket nobody = TestPorts.refusing();
             ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults()); RelaySegmentFetcher task = taskOn(c, 0)) {
            int nowhere = nobody.getLocalPort();
            c.secrets().put(JOB, SECRET);
            MapOutputFiles f = c.outputs(1).write(JOB, MAP, 1, 100, 500, 1);
            assertEquals(FailureKind.SOURCE_UNREACHABLE,
                    task.classify(failureOf(task.fetch("127.0.0.1:" + nowhere, JOB, MAP, 0, SECRET))));
            assertEquals(FailureKind.READ_ERROR, task.classify(failureOf(task.fetch(c.id(1), JOB, MAP, 0,
                    "wrong".getBytes(StandardCharsets.UTF_8)))));
            IncomingSegment ok = task.fetch(c.id(1), JOB, MAP, 0, SECRET);
            SegmentHeader h = ok.awaitHeader(10, TimeUnit.SECONDS);
            assertArrayEquals(c.outputs(1).expectedSegment(f, 0), drain(ok.data(), h.compressedLength()));
            assertEquals(1, task.servingConnections().getAsLong(), "one A->B connection served the segment");
        }
    }

    @Test
    void losingTheNodesOwnProxyIsNobodyElsesFault() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults()); RelaySegmentFetcher task = taskOn(c, 0)) {
            c.secrets().put(JOB, SECRET);
            c.proxy(0).close();
            // Refused reconnect to the local proxy: PEER_UNREACHABLE on the task's own connection, not the source's.
            assertEquals(FailureKind.LOCAL_PROXY, task.classify(failureOf(task.fetch(c.id(1), JOB, MAP, 0, SECRET))));
        }
    }
}
