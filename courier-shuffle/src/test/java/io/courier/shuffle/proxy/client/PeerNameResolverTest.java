package io.courier.shuffle.proxy.client;

import io.courier.shuffle.proxy.NodeAddress;
import io.courier.shuffle.proxy.ProxyConfig;
import io.courier.shuffle.proxy.ProxyTransport;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.source.MapOutputFiles;
import io.courier.shuffle.proxy.testing.ProxyCluster;
import io.netty.channel.nio.NioEventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer name that takes long to resolve (a task may name any source host) stalls only its own fetches: lookups
 * run off the event loop and side by side, so fetches from other peers on the same single loop, by another name
 * or by address, are served meanwhile.
 */
@Timeout(60)
class PeerNameResolverTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String MAP = "attempt_1700000000000_0001_m_000000_0";
    private static final byte[] SECRET = "secret".getBytes(StandardCharsets.UTF_8);

    @TempDir
    File dir;

    @Test
    void aSlowLookupDoesNotStallOtherPeersOnTheSameLoop() throws Exception {
        PeerNameResolver slow = new PeerNameResolver(host -> {
            if (host.equals("slow.invalid")) {
                try {
                    Thread.sleep(3_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new UnknownHostException(host);
            }
            if (host.equals("fast.invalid")) {
                return new InetAddress[] {InetAddress.getLoopbackAddress()};
            }
            throw new UnknownHostException(host);
        });
        NioEventLoopGroup oneLoop = new NioEventLoopGroup(1);
        try (ProxyCluster c = new ProxyCluster(dir, 1, ProxyConfig.defaults())) {
            c.secrets().put(JOB, SECRET);
            MapOutputFiles files = c.outputs(0).write(JOB, MAP, 1, 20, 100, 3);
            ProxyClient client = new ProxyClient("test:1", oneLoop, ProxyTransport.NIO, 64 * 1024, 1 << 20, 1 << 20,
                    10_000, 1, 0, slow);
            try {
                SegmentStream stuck = client.fetch("slow.invalid:1", JOB, MAP, 0, SECRET);
                long start = System.nanoTime();
                // Another name, looked up while the slow one still is; and an address literal, never looked up.
                String port = Integer.toString(NodeAddress.parse(c.id(0)).port());
                byte[] got = ProxyCluster.readAll(client.fetch("fast.invalid:" + port, JOB, MAP, 0, SECRET));
                assertArrayEquals(got, ProxyCluster.readAll(client.fetch(c.id(0), JOB, MAP, 0, SECRET)));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertArrayEquals(c.outputs(0).expectedSegment(files, 0), got);
                assertTrue(millis < 2_000, "the fetch from a resolvable peer waited " + millis + " ms for the slow"
                        + " lookup");
                FetchException e = assertThrows(FetchException.class, () -> stuck.awaitHeader(10, TimeUnit.SECONDS));
                assertEquals(ErrorCode.PEER_UNREACHABLE, e.code(), e.getMessage());
            } finally {
                client.close();
            }
        } finally {
            oneLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
