package io.courier.bench.netemu;

import java.util.List;

/**
 * One run of the loopback receive-path benchmark ({@link ReceivePathBench}): {@code reducers} reducers of one host
 * fetch {@code segments} segments of {@code segmentBytes} bytes ({@code bytes} in all) from that host's own shuffle
 * service in {@code mode}; {@code wallSec} from the common start to the last reducer's end; {@code processCpuSec}:
 * the benchmark process's CPU-seconds over the run window (agent, reducers and driver share it), {@code roles} the
 * same window per thread role. Immutable.
 */
record ReceiveRun(String mode, long segmentBytes, int repeat, int reducers, long segments, long bytes,
                  double wallSec, double processCpuSec, RoleCpu roles) {
    /** The roles that receive: the task's fetch workers or fetchers, relay reader, map events, merges, own thread. */
    static final List<ThreadRole> RECEIVE = List.of(ThreadRole.FETCH_WORKERS, ThreadRole.RELAY_READER,
            ThreadRole.MAP_EVENTS, ThreadRole.MERGE, ThreadRole.REDUCE_TASK);
    /** The roles that serve: Courier's proxy (reading the map output and relaying it) or ShuffleHandler. */
    static final List<ThreadRole> SERVE = List.of(ThreadRole.PROXY_IO, ThreadRole.SHUFFLE_SERVER);

    double receiveSec() {
        return sum(RECEIVE);
    }

    double serveSec() {
        return sum(SERVE);
    }

    private double sum(List<ThreadRole> rs) {
        double s = 0;
        for (ThreadRole r : rs) {
            s += roles.of(r);
        }
        return s;
    }
}
