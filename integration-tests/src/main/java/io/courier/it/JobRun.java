package io.courier.it;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * A finished MapReduce job as its job history file records it, plus the wall time the submitter measured.
 * Immutable apart from the Hadoop {@link Counters} object, which callers must not modify.
 *
 * @param jobId      the job id
 * @param name       job name (TeraSort, word count, ...)
 * @param status     final status: {@code SUCCEEDED}, {@code FAILED}, {@code KILLED}
 * @param wallMillis submit-to-return time measured by the submitter
 * @param counters   the job's total counters
 * @param attempts   every map and reduce attempt that finished (successful, failed or killed)
 * @param errorInfo  the job's diagnostics, empty if none
 * @param proxies    what the cluster's Courier proxies counted while the job ran (zero on a stock cluster)
 */
public record JobRun(String jobId, String name, String status, long wallMillis, Counters counters,
                     List<AttemptSummary> attempts, String errorInfo, ProxyStats proxies) {

    /** Counter group of the Courier reduce-side plugin (its display name; the enum's class name also matches). */
    public static final String COURIER_GROUP = "Courier";
    /** Class name of the Courier counter enum. */
    public static final String COURIER_ENUM = "io.courier.shuffle.reduce.CourierCounter";

    public JobRun {
        attempts = List.copyOf(attempts);
    }

    /** The same run with the proxies' counts for its duration. */
    public JobRun withProxies(ProxyStats during) {
        return new JobRun(jobId, name, status, wallMillis, counters, attempts, errorInfo, during);
    }

    /** True if the job succeeded. */
    public boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }

    /** Value of a task counter (0 when absent). */
    public long counter(TaskCounter c) {
        Counter counter = counters.findCounter(c);
        return counter == null ? 0 : counter.getValue();
    }

    /** Bytes the reducers shuffled ({@code REDUCE_SHUFFLE_BYTES}). */
    public long shuffleBytes() {
        return counter(TaskCounter.REDUCE_SHUFFLE_BYTES);
    }

    /** True if the job has a Courier counter group at all. */
    public boolean hasCourierCounters() {
        return courierGroup() != null;
    }

    /** Value of counter {@code name} in the Courier group; 0 when the group or the counter is absent. */
    public long courier(String name) {
        CounterGroup g = courierGroup();
        if (g == null) {
            return 0;
        }
        for (Counter c : g) {
            if (c.getName().equals(name)) {
                return c.getValue();
            }
        }
        return 0;
    }

    private CounterGroup courierGroup() {
        // Looked up by iteration: Counters.getGroup would create an empty group.
        for (CounterGroup g : counters) {
            if (g.getName().equals(COURIER_GROUP) || g.getName().equals(COURIER_ENUM)
                    || COURIER_GROUP.equals(g.getDisplayName())) {
                return g;
            }
        }
        return null;
    }

    /** Successful attempts of one type. */
    public List<AttemptSummary> successful(TaskType type) {
        return attempts.stream().filter(a -> a.type() == type && a.succeeded()).toList();
    }

    /** Failed attempts (any type). */
    public List<AttemptSummary> failedAttempts() {
        return attempts.stream().filter(a -> "FAILED".equals(a.state())).toList();
    }

    /** Shuffle ports of the NodeManagers that ran successful attempts of {@code type}. */
    public Set<Integer> nodesOf(TaskType type) {
        Set<Integer> ports = new TreeSet<>();
        for (AttemptSummary a : successful(type)) {
            ports.add(a.shufflePort());
        }
        return ports;
    }

    /**
     * Number of (successful map, successful reduce) pairs on different NodeManagers: with at least one, map output
     * had to cross nodes (every reducer fetches its partition from every map).
     */
    public long crossNodePairs() {
        long n = 0;
        for (AttemptSummary m : successful(TaskType.MAP)) {
            for (AttemptSummary r : successful(TaskType.REDUCE)) {
                if (m.shufflePort() != r.shufflePort()) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Number of (successful map, successful reduce) pairs on the same NodeManager: node-local segments. */
    public long sameNodePairs() {
        return (long) successful(TaskType.MAP).size() * successful(TaskType.REDUCE).size() - crossNodePairs();
    }

    /** Longest shuffle among the successful reduce attempts (ms). */
    public long maxShuffleMillis() {
        return successful(TaskType.REDUCE).stream().mapToLong(AttemptSummary::shuffleMillis).max().orElse(0);
    }

    /** When the last successful reduce attempt's shuffle ended (epoch ms), 0 without one. */
    public long lastShuffleFinishTime() {
        return successful(TaskType.REDUCE).stream().mapToLong(AttemptSummary::shuffleFinishTime).max().orElse(0);
    }

    /** Sum of the shuffle times of the successful reduce attempts (ms). */
    public long totalShuffleMillis() {
        return successful(TaskType.REDUCE).stream().mapToLong(AttemptSummary::shuffleMillis).sum();
    }

    @Override
    public String toString() {
        return name + " " + jobId + " " + status + " in " + wallMillis + " ms, maps on " + nodesOf(TaskType.MAP)
                + ", reduces on " + nodesOf(TaskType.REDUCE) + ", shuffle bytes " + shuffleBytes()
                + (errorInfo.isEmpty() ? "" : ", error: " + errorInfo);
    }
}
