package io.courier.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.courier.shuffle.nm.PortPairPicker;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The first start of a {@link RecoverableNodeManager} survives a port that was free when drawn and taken when bound
 * (the race that failed {@link NodeLossTest}'s cluster start about once in 70), and the ports one cluster's
 * NodeManagers are given never collide with each other.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RecoverableNodeManagerStartTest {

    @Test
    void aStartWhoseShufflePortWasTakenMeanwhileIsRetriedOnOtherPorts() throws Exception {
        YarnConfiguration conf = new YarnConfiguration();
        MiniCourierCluster.configureYarn(conf, NodeShuffleService.COURIER);
        MiniYARNCluster yarn = new MiniYARNCluster("rnm-start", 0, 1, 1);
        try (ServerSocket squatter = new ServerSocket()) {
            yarn.init(conf);
            yarn.start();
            // The squatter takes the port the first shuffle draw returns, as another process would between the
            // probe and the NodeManager's bind.
            squatter.bind(new InetSocketAddress(PortPairPicker.pick(1)));
            int taken = squatter.getLocalPort();
            AtomicBoolean handedTheTakenPort = new AtomicBoolean();
            ClusterPorts ports = new ClusterPorts(offset -> offset > 0 && handedTheTakenPort.compareAndSet(false, true)
                    ? taken : PortPairPicker.pick(offset));
            RecoverableNodeManager nm = RecoverableNodeManager.start(0, yarn.getConfig(), yarn.getResourceManager(),
                    Path.of("target", "rnm-start-work", "nm-0"), ports);
            try {
                assertTrue(handedTheTakenPort.get(), "the first shuffle draw was the squatted port");
                assertTrue(nm.running());
                assertNotEquals(taken, nm.shufflePort());
            } finally {
                nm.kill();
            }
        } finally {
            yarn.stop();
        }
    }

    @Test
    void portsHandedOutInParallelAreDistinctPairs() throws Exception {
        ClusterPorts ports = new ClusterPorts();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> claims = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                int offset = i % 2;
                claims.add(pool.submit(() -> ports.claim(offset)));
            }
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < claims.size(); i++) {
                int p = claims.get(i).get();
                assertTrue(seen.add(p), "port " + p + " handed out twice");
                if (i % 2 == 1) {
                    assertTrue(seen.add(p + 1), "port " + (p + 1) + " handed out twice");
                }
            }
            assertEquals(90, seen.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDrawThatOnlyRepeatsHandedOutPortsEndsInAnErrorNamingThem() throws Exception {
        ClusterPorts ports = new ClusterPorts(offset -> 61_234);
        assertEquals(61_234, ports.claim(0));
        IOException e = assertThrows(IOException.class, () -> ports.claim(0));
        assertTrue(e.getMessage().contains("61234"), e.getMessage());
    }

    @Test
    void onlyABindFailureAnywhereInTheCausesCountsAsALostRace() {
        assertTrue(RecoverableNodeManager.lostBindRace(new IllegalStateException("start",
                new RuntimeException(new java.net.BindException("Address already in use")))));
        assertTrue(!RecoverableNodeManager.lostBindRace(new IOException("disk full")));
    }
}
