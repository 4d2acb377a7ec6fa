package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One agent on loopback (host 1 of 1, 127.0.0.1): map outputs prepared once are fetched completely by Hadoop's own
 * Shuffle from ShuffleHandler (stock) and by Courier's consumer through the proxy (courier), byte counts equal to
 * the written partitions; QUIT stops the agent. Needs the fixed shuffle ports 13562/13563 free (skipped otherwise).
 */
@Timeout(120)
class HostAgentLoopbackTest {
    @TempDir
    File tmp;

    static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void bothModesFetchEveryPreparedByteAndQuitStops() throws Exception {
        assumeTrue(free(BenchIds.SHUFFLE_PORT) && free(BenchIds.SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET),
                "ports 13562/13563 in use on this machine");
        Path socket = tmp.toPath().resolve("agent-1.sock");
        HostAgent agent = new HostAgent(1, "127.0.0.1", socket, new File(tmp, "work"));
        Thread t = new Thread(() -> {
            try {
                agent.serve();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "agent");
        t.start();
        for (int i = 0; i < 600 && !Files.exists(socket); i++) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(socket), "agent socket");
        AgentClient client = new AgentClient(1, socket);
        assertTrue(client.call(AgentMessages.Request.simple(AgentMessages.Op.PING)).pid() > 0);

        int partitions = 3;
        AgentMessages.Response prepared = client.call(new AgentMessages.Request(AgentMessages.Op.PREPARE, 42, 1, 2,
                partitions, 20_000, null, 0, null, 0));
        long[] lengths = prepared.partLengths();
        assertEquals(2 * partitions, lengths.length, "two maps x three partitions");
        for (Mode mode : Mode.values()) {
            AgentMessages.Response run = client.call(new AgentMessages.Request(AgentMessages.Op.RUN, 42, 1, 2,
                    partitions, 20_000, mode, 2, List.of(0, 1, 2), System.nanoTime()));
            assertEquals(3, run.reducers().size());
            for (AgentMessages.ReducerResult r : run.reducers()) {
                assertNull(r.error(), mode + ": " + r.error());
                assertEquals(lengths[r.partition()] + lengths[partitions + r.partition()], r.bytes(),
                        mode + " reducer " + r.partition() + " got every byte of its two segments");
                assertEquals(2, r.maps());
                assertTrue(r.endNanos() >= r.startNanos());
            }
        }
        client.call(new AgentMessages.Request(AgentMessages.Op.FINISH, 42, 0, 0, 0, 0, null, 0, null, 0));
        assertFalse(new File(tmp, "work/nm-local/usercache/bench/appcache/" + BenchIds.app(42)).exists(),
                "FINISH deletes the job's map outputs");
        client.call(AgentMessages.Request.simple(AgentMessages.Op.QUIT));
        t.join(30_000);
        assertFalse(t.isAlive(), "QUIT stops the agent");
        assertThrows(IOException.class, () -> client.call(AgentMessages.Request.simple(AgentMessages.Op.PING)));
    }
}
