package io.courier.shuffle.proxy.cluster;

import io.courier.shuffle.TestPorts;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.client.FetchException;
import io.courier.shuffle.proxy.client.SegmentStream;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.Eventually;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import org.apache.hadoop.fs.ChecksumException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Peers that die, reconnects, and corrupted bytes (research/ECOSYSTEM.md §6). */
class FaultToleranceTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final byte[] SECRET = "s".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;

    private static String map(int m) {
        return String.format("attempt_1700000000000_0001_m_%06d_0", m);
    }

    @Test
    void aPeerThatDiesMidStreamFailsOnlyItsStreamsRetryablyAndARestartedPeerServesAgain() throws Exception {
        int window = 64 * 1024;
        try (ProxyCluster c = new ProxyCluster(dir, 3, ProxyConfig.defaults().withStreamWindow(window))) {
            c.secrets().put(JOB, SECRET);
            List<MapOutputFiles> onOne = new ArrayList<>();
            List<MapOutputFiles> onTwo = new ArrayList<>();
            for (int m = 0; m < 4; m++) {
                onOne.add(c.outputs(1).write(JOB, map(m), 2, 300, 1000, m));
                onTwo.add(c.outputs(2).write(JOB, map(10 + m), 2, 300, 1000, 10 + m));
            }
            List<SegmentStream> fromOne = new ArrayList<>();
            List<SegmentStream> fromTwo = new ArrayList<>();
            for (int m = 0; m < 4; m++) {
                fromOne.add(c.proxy(0).fetch(c.id(1), JOB, map(m), 0, SECRET));
                fromTwo.add(c.proxy(0).fetch(c.id(2), JOB, map(10 + m), 0, SECRET));
            }
            // Node 1's streams are mid-stream: each holds its first window and waits for credit.
            for (SegmentStream s : fromOne) {
                Eventually.waitUntil("first window of " + s, () -> s.received() == window);
            }
            NodeAddress oneAddress = NodeAddress.parse(c.id(1));
            c.proxy(1).close();
            for (SegmentStream s : fromOne) {
                FetchException e = assertThrows(FetchException.class, () -> ProxyCluster.readAll(s));
                assertEquals(ErrorCode.PEER_LOST, e.code());
                assertTrue(e.retryable(), "a lost peer is a retryable failure: " + e);
            }
            // Node 2's streams, on another connection, are untouched.
            for (int m = 0; m < 4; m++) {
                assertArrayEquals(c.outputs(2).expectedSegment(onTwo.get(m), 0), ProxyCluster.readAll(fromTwo.get(m)));
            }
            assertEquals(1L, (long) c.proxy(0).clientCounters().connectionsByPeer().get(c.id(2)));

            // Node 1 comes back on the same port with the same map outputs: the retried fetches succeed over a
            // new connection.
            try (CourierProxy restarted = new CourierProxy(ProxyConfig.defaults().withPort(oneAddress.port()),
                    c.secrets(), c.outputs(1).locator())) {
                assertEquals(c.id(1), restarted.start());
                for (int m = 0; m < 4; m++) {
                    byte[] got = ProxyCluster.readAll(c.proxy(0).fetch(c.id(1), JOB, map(m), 0, SECRET));
                    assertArrayEquals(c.outputs(1).expectedSegment(onOne.get(m), 0), got);
                    c.outputs(1).verifyChecksum(got);
                }
                assertEquals(2L, (long) c.proxy(0).clientCounters().connectionsByPeer().get(c.id(1)),
                        "one lost connection and one new one");
            }
            Eventually.waitUntil("failed streams returning their windows", () -> c.proxy(0).reservedBytes() == 0);
        }
    }

    @Test
    void anUnreachablePeerFailsTheFetchRetryably() throws Exception {
        try (Socket nobody = TestPorts.refusing(); ProxyCluster c = new ProxyCluster(dir, 1, ProxyConfig.defaults())) {
            SegmentStream s = c.proxy(0).fetch("127.0.0.1:" + nobody.getLocalPort(), JOB, map(0), 0, SECRET);
            FetchException e = assertThrows(FetchException.class, () -> s.awaitHeader(10, TimeUnit.SECONDS));
            assertEquals(ErrorCode.PEER_UNREACHABLE, e.code());
            assertTrue(e.retryable());
        }
    }

    @Test
    void aCorruptedBlockIsDetectedByTheReducersChecksum() throws Exception {
        try (ProxyCluster c = new ProxyCluster(dir, 2, ProxyConfig.defaults())) {
            c.secrets().put(JOB, SECRET);
            MapOutputFiles f = c.outputs(1).write(JOB, map(0), 2, 300, 1000, 7);
            byte[] clean = c.outputs(1).expectedSegment(f, 1);
            // Flip one byte in the middle of partition 1's IFile data (a later 64 KiB block), as disk rot would.
            long offset = f.data().length() - clean.length / 2;
            try (RandomAccessFile raf = new RandomAccessFile(f.data(), "rw")) {
                raf.seek(offset);
                int b = raf.read();
                raf.seek(offset);
                raf.write(b ^ 0x10);
            }
            byte[] got = ProxyCluster.readAll(c.proxy(0).fetch(c.id(1), JOB, map(0), 1, SECRET));
            assertEquals(clean.length, got.length, "the proxy delivers the bytes as stored");
            IOException e = assertThrows(IOException.class, () -> c.outputs(1).verifyChecksum(got));
            assertTrue(e instanceof ChecksumException, "Hadoop's IFileInputStream must flag it: " + e);
            c.outputs(1).verifyChecksum(clean);
        }
    }
}
