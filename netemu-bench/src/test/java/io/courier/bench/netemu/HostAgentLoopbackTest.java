package io.courier.bench.netemu;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.courier.coordinator.Coordinator;
import io.courier.coordinator.CoordinatorSettings;
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
 * the written partitions; the same through a job linked to the prepared outputs, and through the coordinated proxy
 * following an in-process coordinator (varys) on loopback (courier+coord); QUIT stops the agent. Needs the fixed
 * shuffle ports 13562/13563 and 13572/13573 free (skipped otherwise).
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
        assumeTrue(free(BenchIds.SHUFFLE_PORT) && free(BenchIds.SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET)
                && free(BenchIds.COORD_SHUFFLE_PORT) && free(BenchIds.COORD_SHUFFLE_PORT + BenchIds.PROXY_PORT_OFFSET),
                "ports 13562/13563/13572/13573 in use on this machine");
        Path socket = tmp.toPath().resolve("agent-1.sock");
        HostAgent agent = new HostAgent(1, "127.0.0.1", null, socket, new File(tmp, "work"));
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
        AgentMessages.Response prepared = client.call(AgentMessages.Request.prepare(42, 1, 2, partitions, 20_000));
        long[] lengths = prepared.partLengths();
        assertEquals(2 * partitions, lengths.length, "two maps x three partitions");
        for (Mode mode : List.of(Mode.STOCK, Mode.COURIER)) {
            runAndCheck(client, 42, mode, lengths, partitions);
        }
        // Every run is its own job: the same bytes linked under a fresh id fetch alike.
        client.call(AgentMessages.Request.link(42, 43, 2));
        runAndCheck(client, 43, Mode.COURIER, lengths, partitions);
        client.call(AgentMessages.Request.finish(43));
        assertFalse(new File(tmp, "work/nm-local/usercache/bench/appcache/" + BenchIds.app(43)).exists(),
                "FINISH deletes the linked job's names");
        // No coordinated proxy yet: a coordinated run is refused with the reason.
        IOException refused = assertThrows(IOException.class, () -> client.call(AgentMessages.Request.run(42, 1, 2,
                partitions, 20_000, Mode.COURIER_COORD, 2, List.of(0), System.nanoTime())));
        assertTrue(refused.getMessage().contains("COORDINATE first"), refused.getMessage());
        // A coordinator on loopback: the coordinated proxy follows it, and a coordinated run fetches every byte.
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ClassLoader cl = getClass().getClassLoader();
        Config config = ConfigFactory.empty()
                .withValue("courier.coordinator.port", ConfigValueFactory.fromAnyRef(port))
                .withValue("courier.coordinator.scheduler.name", ConfigValueFactory.fromAnyRef("varys"))
                .withValue("courier.coordinator.epoch", ConfigValueFactory.fromAnyRef("10ms"))
                .withFallback(ConfigFactory.defaultReference(cl)).resolve();
        try (Coordinator coordinator = Coordinator.start(CoordinatorSettings.from(config), config, cl)) {
            client.call(AgentMessages.Request.coordinate("127.0.0.1:" + port, 1_000_000, 60_000));
            client.call(AgentMessages.Request.link(42, 44, 2));
            runAndCheck(client, 44, Mode.COURIER_COORD, lengths, partitions);
            client.call(AgentMessages.Request.finish(44));
        }
        client.call(AgentMessages.Request.finish(42));
        assertFalse(new File(tmp, "work/nm-local/usercache/bench/appcache/" + BenchIds.app(42)).exists(),
                "FINISH deletes the job's map outputs");
        client.call(AgentMessages.Request.simple(AgentMessages.Op.QUIT));
        t.join(30_000);
        assertFalse(t.isAlive(), "QUIT stops the agent");
        assertThrows(IOException.class, () -> client.call(AgentMessages.Request.simple(AgentMessages.Op.PING)));
    }

    private static void runAndCheck(AgentClient client, int coflow, Mode mode, long[] lengths, int partitions)
            throws IOException {
        AgentMessages.Response run = client.call(AgentMessages.Request.run(coflow, 1, 2, partitions, 20_000, mode, 2,
                List.of(0, 1, 2), System.nanoTime()));
        assertEquals(3, run.reducers().size());
        for (AgentMessages.ReducerResult r : run.reducers()) {
            assertNull(r.error(), mode + ": " + r.error());
            assertEquals(lengths[r.partition()] + lengths[partitions + r.partition()], r.bytes(),
                    mode + " reducer " + r.partition() + " of coflow " + coflow + " got every byte of its two segments");
            assertEquals(2, r.maps());
            assertTrue(r.endNanos() >= r.startNanos());
        }
    }
}
