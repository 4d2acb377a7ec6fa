package io.courier.shuffle.nm;

import io.courier.shuffle.proxy.CourierProxy;
import io.courier.shuffle.proxy.client.ClientCounters;
import io.courier.shuffle.proxy.protocol.ErrorCode;
import io.courier.shuffle.proxy.relay.RelayStats;
import io.courier.shuffle.proxy.server.ServerCounters;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

import java.util.Map;

/**
 * A metrics2 source for one node's Courier proxy (record {@code CourierProxy}, context {@code courier}): counters
 * and gauges read from the proxy's {@link ServerCounters} and {@link ClientCounters} on every snapshot, so the
 * proxy's hot path pays nothing for metrics. Registered by {@link CourierShuffleHandler} under
 * {@link #sourceName(int)}. The metrics system calls {@link #getMetrics} from its own thread; the counters are
 * thread-safe.
 */
public final class CourierProxyMetrics implements MetricsSource {
    static final String RECORD = "CourierProxy";
    static final String CONTEXT = "courier";

    private final CourierProxy proxy;
    private final String nodeId;

    public CourierProxyMetrics(CourierProxy proxy, String nodeId) {
        this.proxy = proxy;
        this.nodeId = nodeId;
    }

    /**
     * The proxy this source reports on. Tests in the NodeManager's JVM reach a node's live proxy through here:
     * {@code DefaultMetricsSystem.instance().getSource(sourceName(proxyPort))}, with the proxy port decoded from
     * the NodeManager's {@code mapreduce_shuffle} metadata.
     */
    public CourierProxy proxy() {
        return proxy;
    }

    /** The source name for the proxy listening on {@code proxyPort}: unique per host, also in mini clusters. */
    public static String sourceName(int proxyPort) {
        return RECORD + "-" + proxyPort;
    }

    private static MetricsInfo info(String name, String description) {
        return Interns.info(name, description);
    }

    private static long sum(Map<String, Long> byPeer) {
        long n = 0;
        for (long v : byPeer.values()) {
            n += v;
        }
        return n;
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        ServerCounters s = proxy.serverCounters();
        ClientCounters c = proxy.clientCounters();
        RelayStats relay = proxy.relayStats();
        Map<String, Long> accepted = s.connectionsByPeer();
        Map<String, Long> opened = c.connectionsByPeer();
        MetricsRecordBuilder r = collector.addRecord(RECORD).setContext(CONTEXT)
                .tag(info("NodeId", "The proxy's node id, host:port"), nodeId)
                .addCounter(info("BytesSent", "Segment bytes this proxy served to peers"), s.bytesSent())
                .addCounter(info("BytesReceived", "Segment bytes this proxy fetched from peers"), c.bytesReceived())
                .addCounter(info("SegmentsServed", "Segments served completely to peers"), s.streamsServed())
                .addCounter(info("SegmentsFetched", "Segments fetched completely from peers"), c.segmentsCompleted())
                .addCounter(info("BlocksReceived", "Data blocks (<= 64 KiB) received from peers"),
                        c.blocksReceived())
                .addCounter(info("FetchesRefused", "Fetches this proxy refused (any error code)"), s.streamsRefused())
                .addCounter(info("FetchesFailed", "Fetches of this proxy that failed"), c.streamsFailed())
                .addCounter(info("ProtocolErrors", "Peer connections closed for a protocol error"),
                        s.protocolErrors())
                .addCounter(info("FramesRejected", "Received frames that named no open stream"), c.rejectedFrames())
                .addCounter(info("PeerConnectionsAccepted", "Connections accepted from peer proxies"), sum(accepted))
                .addCounter(info("PeerConnectionsOpened", "Connections opened to peer proxies"), sum(opened))
                .addGauge(info("PeerConnectionsOpen", "Connections from peer proxies open now"), s.connectionsOpen())
                .addGauge(info("PeersServed", "Distinct peer proxies that connected to this proxy"), accepted.size())
                .addGauge(info("PeersFetchedFrom", "Distinct peer proxies this proxy connected to"), opened.size())
                .addGauge(info("ReservedBytes", "Stream-window bytes reserved by local fetches now"),
                        proxy.reservedBytes())
                .addGauge(info("TaskConnectionsOpen", "Relay connections of local reduce tasks open now"),
                        relay.openTaskConnections())
                .addCounter(info("TaskConnectionsOverloaded", "Task connections refused at"
                        + " courier.proxy.relay.max-connections (OVERLOADED, the tasks back off)"),
                        relay.overloadedConnections())
                .addCounter(info("TaskConnectionsDomainSocket", "Task connections accepted on the relay's Unix"
                        + " domain socket (the others came over loopback TCP)"), relay.domainSocketConnections())
                .addCounter(info("TaskConnectionsRefusedUser", "Task connections refused because the task's OS"
                        + " user is not its job's (courier.proxy.relay.task-user.check)"), relay.refusedTaskUsers());
        Map<ErrorCode, Long> refused = s.refusedByCode();
        // Always the full set, so that JMX sees a fixed list of attributes.
        for (ErrorCode code : ErrorCode.values()) {
            Long n = refused.get(code);
            r.addCounter(info("FetchesRefused_" + code.name(), "Fetches refused with " + code), n == null ? 0L : n);
        }
        r.endRecord();
    }
}
