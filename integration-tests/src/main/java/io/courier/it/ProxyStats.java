package io.courier.it;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.yarn.server.api.AuxiliaryService;

import io.courier.shuffle.nm.CourierShuffleHandler;
import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.client.ClientCounters;
import io.courier.shuffle.proxy.server.ServerCounters;

/**
 * Connection and byte counts of the Courier proxies of a mini cluster at one moment, read from each NodeManager's
 * {@code CourierShuffleHandler} (same JVM). {@link #minus} gives what one job added. Empty for a cluster that runs
 * the stock ShuffleHandler. Immutable.
 *
 * <p>Read from the handler instances the NodeManagers of this JVM run ({@link MiniCourierCluster#auxService}).
 *
 * @param opened        per NodeManager index: connections this proxy opened, by peer proxy
 * @param accepted      per NodeManager index: connections this proxy accepted, by peer
 * @param bytesSent     segment bytes all proxies served to peers
 * @param bytesReceived segment bytes all proxies fetched from peers
 * @param segmentsServed segments all proxies served completely
 */
public record ProxyStats(Map<Integer, Map<String, Long>> opened, Map<Integer, Map<String, Long>> accepted,
                         long bytesSent, long bytesReceived, long segmentsServed) {

    /** No proxies, nothing counted. */
    public static final ProxyStats EMPTY = new ProxyStats(Map.of(), Map.of(), 0, 0, 0);

    public ProxyStats {
        opened = deepCopy(opened);
        accepted = deepCopy(accepted);
    }

    /** The proxies' counters now; all zero when the cluster runs no Courier handler. */
    public static ProxyStats capture(MiniCourierCluster cluster) {
        Map<Integer, Map<String, Long>> opened = new TreeMap<>();
        Map<Integer, Map<String, Long>> accepted = new TreeMap<>();
        long sent = 0;
        long received = 0;
        long served = 0;
        if (cluster.service() != NodeShuffleService.COURIER) {
            return new ProxyStats(opened, accepted, 0, 0, 0);
        }
        for (int i = 0; i < cluster.nodeManagerCount(); i++) {
            if (!cluster.running(i)) {
                continue; // a NodeManager a test stopped: its proxy is gone
            }
            AuxiliaryService service = cluster.auxService(i);
            if (!(service instanceof CourierShuffleHandler handler)) {
                throw new IllegalStateException("NodeManager " + i + " runs " + service.getClass().getName()
                        + ", not the Courier handler");
            }
            CourierProxy proxy = handler.proxy();
            if (proxy == null) {
                throw new IllegalStateException("NodeManager " + i + " has no running Courier proxy");
            }
            ServerCounters server = proxy.serverCounters();
            ClientCounters client = proxy.clientCounters();
            opened.put(i, client.connectionsByPeer());
            accepted.put(i, server.connectionsByPeer());
            sent += server.bytesSent();
            served += server.streamsServed();
            received += client.bytesReceived();
        }
        return new ProxyStats(opened, accepted, sent, received, served);
    }

    /** What happened between {@code before} and this snapshot. */
    public ProxyStats minus(ProxyStats before) {
        return new ProxyStats(diff(opened, before.opened), diff(accepted, before.accepted),
                bytesSent - before.bytesSent, bytesReceived - before.bytesReceived,
                segmentsServed - before.segmentsServed);
    }

    /** Connections opened between proxies, all nodes together. */
    public long connectionsOpened() {
        return opened.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
    }

    /** The most connections one proxy opened to one peer. */
    public long maxConnectionsPerPair() {
        return opened.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).max()
                .orElse(0);
    }

    /** Number of proxies that accepted at least one peer connection. */
    public long proxiesThatAccepted() {
        return accepted.values().stream().filter(m -> m.values().stream().anyMatch(v -> v > 0)).count();
    }

    private static Map<Integer, Map<String, Long>> diff(Map<Integer, Map<String, Long>> now,
                                                        Map<Integer, Map<String, Long>> before) {
        Map<Integer, Map<String, Long>> d = new TreeMap<>();
        for (Map.Entry<Integer, Map<String, Long>> node : now.entrySet()) {
            Map<String, Long> old = before.getOrDefault(node.getKey(), Map.of());
            Map<String, Long> peers = new TreeMap<>();
            for (Map.Entry<String, Long> p : node.getValue().entrySet()) {
                long delta = p.getValue() - old.getOrDefault(p.getKey(), 0L);
                if (delta != 0) {
                    peers.put(p.getKey(), delta);
                }
            }
            d.put(node.getKey(), peers);
        }
        return d;
    }

    private static Map<Integer, Map<String, Long>> deepCopy(Map<Integer, Map<String, Long>> m) {
        Map<Integer, Map<String, Long>> c = new TreeMap<>();
        for (Map.Entry<Integer, Map<String, Long>> e : m.entrySet()) {
            c.put(e.getKey(), Collections.unmodifiableMap(new TreeMap<>(e.getValue())));
        }
        return Collections.unmodifiableMap(c);
    }
}
