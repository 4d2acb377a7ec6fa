package io.courier.bench.netemu;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Thread names as the agents' threads carry them, cut to 15 bytes as /proc/<pid>/task/<tid>/comm shows them. */
class ThreadRoleTest {
    /** What the kernel keeps of a thread name (TASK_COMM_LEN 16 with the terminating 0), with comm's newline. */
    private static String comm(String threadName) {
        return (threadName.length() > 15 ? threadName.substring(0, 15) : threadName) + "\n";
    }

    private static void assertRole(ThreadRole expected, String threadName) {
        assertEquals(expected, ThreadRole.of(comm(threadName)), threadName);
    }

    @Test
    void courierThreads() {
        assertRole(ThreadRole.PROXY_IO, "courier-proxy-io-3-1");
        assertRole(ThreadRole.PROXY_IO, "courier-proxy-accept-2-1");
        assertRole(ThreadRole.PLANNING, "courier-coordination 10.201.0.1:13563");
        assertRole(ThreadRole.PLANNING, "courier-coordinator-client-watchdog 10.201.0.1:13573");
        assertRole(ThreadRole.PLANNING, "courier-proxy-pekko.actor.default-dispatcher-5");
        assertRole(ThreadRole.PLANNING, "courier-proxy-scheduler-1");
        assertRole(ThreadRole.FETCH_WORKERS, "courier-fetch#0 attempt_1_0001_r_000003_0");
        assertRole(ThreadRole.FETCH_WORKERS, "courier-fetch#12 attempt_1_0001_r_000003_0");
        assertRole(ThreadRole.RELAY_READER, "courier-relay-reader-10.201.0.1:13563");
        assertRole(ThreadRole.MAP_EVENTS, "courier-map-events attempt_1_0001_r_000003_0");
    }

    @Test
    void stockHadoopThreads() {
        assertRole(ThreadRole.FETCH_WORKERS, "fetcher#1");
        assertRole(ThreadRole.FETCH_WORKERS, "fetcher#15");
        assertRole(ThreadRole.MAP_EVENTS, "EventFetcher for fetching Map Completion Events");
        assertRole(ThreadRole.MERGE, "InMemoryMerger - Thread to merge in-memory shuffled map-outputs");
        assertRole(ThreadRole.MERGE, "OnDiskMerger - Thread to merge on-disk map-outputs");
        assertRole(ThreadRole.SHUFFLE_SERVER, "ShuffleHandler Netty Boss #0");
        assertRole(ThreadRole.SHUFFLE_SERVER, "ShuffleHandler Netty Worker #3");
        assertRole(ThreadRole.SHUFFLE_SERVER, "Readahead Thread #2");
        assertRole(ThreadRole.PLANNING, "ShufflePenaltyReferee");
    }

    @Test
    void agentAndJvmThreads() {
        assertRole(ThreadRole.REDUCE_TASK, "netemu-reducer");
        assertRole(ThreadRole.GC, "VM Thread");
        assertRole(ThreadRole.GC, "GC Thread#0");
        assertRole(ThreadRole.GC, "G1 Conc#0");
        assertRole(ThreadRole.JIT, "C1 CompilerThread0");
        assertRole(ThreadRole.JIT, "C2 CompilerThread1");
        assertRole(ThreadRole.OTHER, "VM Periodic Task Thread");
        assertRole(ThreadRole.OTHER, "netemu-request");
        assertRole(ThreadRole.OTHER, "Signal Dispatcher");
        assertRole(ThreadRole.OTHER, "java");
    }

    @Test
    void labelsAndColumnsAreDistinct() {
        Set<String> labels = new HashSet<>();
        Set<String> columns = new HashSet<>();
        for (ThreadRole r : ThreadRole.values()) {
            labels.add(r.label());
            columns.add(r.csvColumn());
        }
        assertEquals(ThreadRole.values().length, labels.size());
        assertEquals(ThreadRole.values().length, columns.size());
        assertEquals("cpu_proxy_io_s", ThreadRole.PROXY_IO.csvColumn());
    }
}
