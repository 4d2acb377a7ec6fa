package io.courier.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import io.netty.channel.epoll.Epoll;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * The assertions shared by the end-to-end tests: what a stock-shuffle job and a Courier job must show in their
 * counters, logs and proxy counts.
 */
final class CourierExpectations {
    private final MiniCourierCluster cluster;
    private final ShuffleLogs logs;

    CourierExpectations(MiniCourierCluster cluster) {
        this.cluster = cluster;
        this.logs = new ShuffleLogs(cluster);
    }

    /** One log line: the TCP connections {@code run} opened for its shuffle (HTTP, and between proxies). */
    String connections(JobRun run) throws IOException {
        return run.jobId() + " opened " + logs.httpFetchConnections(run) + " HTTP shuffle connections and "
                + run.proxies().connectionsOpened() + " proxy connections " + run.proxies().opened() + " for "
                + run.successful(TaskType.REDUCE).size() + " reducers";
    }

    /** A job that did not opt in: it succeeded, shuffled over HTTP, and Courier's proxies carried none of it. */
    void stockShuffle(JobRun run) throws IOException {
        assertTrue(run.succeeded(), run::toString);
        assertTrue(run.shuffleBytes() > 0, () -> "no shuffle bytes: " + run);
        assertEquals(0, run.courier("PROXY_BYTES"), () -> "a stock job moved bytes through Courier: " + run);
        assertEquals(run.counter(TaskCounter.SHUFFLED_MAPS),
                (long) run.successful(TaskType.MAP).size() * run.successful(TaskType.REDUCE).size(),
                "every reducer fetched every map");
        assertTrue(logs.httpFetchConnections(run) > 0, () -> "no HTTP fetch in the shuffle logs of " + run);
        assertEquals(0, run.proxies().bytesSent(), () -> "Courier proxies served bytes for a stock job: " + run);
    }

    /**
     * A Courier job: every shuffled byte and segment went through the proxies or, for maps on the reducer's own
     * node, was read from the node-local files; nothing over HTTP, and proxies opened at most one connection per
     * node pair.
     */
    void courierShuffle(JobRun run) throws IOException {
        assertTrue(run.succeeded(), run::toString);
        assertTrue(run.hasCourierCounters(), () -> "no Courier counter group: " + run.counters());
        long bytes = run.shuffleBytes();
        assertTrue(bytes > 0, () -> "no shuffle bytes: " + run);
        assertEquals(bytes, run.courier("PROXY_BYTES") + run.courier("LOCAL_BYTES"),
                "PROXY_BYTES + LOCAL_BYTES must equal REDUCE_SHUFFLE_BYTES");
        assertEquals(0, run.courier("HTTP_FALLBACK_BYTES"), "no byte may go over the HTTP fallback");
        assertEquals(0, run.courier("HTTP_FALLBACK_SEGMENTS"), "no segment may go over the HTTP fallback");
        long maps = run.successful(TaskType.MAP).size();
        long reduces = run.successful(TaskType.REDUCE).size();
        assertEquals(maps * reduces, run.counter(TaskCounter.SHUFFLED_MAPS), "every reducer fetched every map");
        assertEquals(maps * reduces, run.courier("PROXY_SEGMENTS") + run.courier("LOCAL_SEGMENTS"),
                "every segment came through a proxy or from a node-local file");
        // A map's output on its reducer's own node is read from the file YARN left in their application's dirs.
        assertEquals(run.sameNodePairs(), run.courier("LOCAL_SEGMENTS"),
                "every (map, reduce) pair on one NodeManager is read node-locally, no other");
        assertEquals(0, logs.httpFetchConnections(run), "Hadoop's HTTP fetcher must not have run");
        assertTrue(logs.countLines(run, "Courier shuffle active") >= reduces,
                () -> "not every reduce task logged that Courier is active: " + run);
        if (Epoll.isAvailable()) {
            // Where the proxies run epoll, the relay listens on a domain socket and every reducer takes it.
            assertTrue(logs.countLines(run, "reaches its local proxy") >= reduces,
                    () -> "not every reduce task logged how it reached its local proxy: " + run);
            assertEquals(0, logs.countLines(run, " over tcp"),
                    () -> "a reduce task reached its local proxy over TCP, not the relay's domain socket: " + run);
        }
        ProxyStats p = run.proxies();
        assertTrue(p.maxConnectionsPerPair() <= 1,
                () -> "a proxy opened more than one connection to one peer during " + run.jobId() + ": "
                        + p.opened());
        // A proxy also fetches its own node's map outputs through a connection to itself: n * n ordered pairs.
        int n = cluster.nodeManagerCount();
        assertTrue(p.connectionsOpened() <= (long) n * n, () -> "too many proxy connections: " + p.opened());
    }

    /** Maps ran on at least two NodeManagers and some reducer ran apart from some map: bytes crossed nodes. */
    void crossedNodes(JobRun run) {
        assertTrue(run.nodesOf(TaskType.MAP).size() >= 2,
                () -> "maps did not spread over the NodeManagers: " + run);
        assertTrue(run.crossNodePairs() > 0, () -> "no map output had to cross nodes: " + run);
    }
}
