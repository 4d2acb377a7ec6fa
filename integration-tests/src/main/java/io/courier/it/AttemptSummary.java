package io.courier.it;

import org.apache.hadoop.mapreduce.TaskType;

/**
 * One finished task attempt of a job, as its job history records it: where it ran (identified by the shuffle port
 * of its NodeManager: in a mini cluster every node is {@code localhost}) and when its shuffle ended.
 *
 * @param attemptId         e.g. {@code attempt_..._r_000003_0}
 * @param type              MAP or REDUCE (setup/cleanup attempts are not recorded)
 * @param state             {@code SUCCEEDED}, {@code FAILED}, {@code KILLED}
 * @param shufflePort       shuffle port of the attempt's NodeManager
 * @param containerId       the attempt's container, to find its logs
 * @param startTime         attempt start (epoch ms)
 * @param shuffleFinishTime end of a reduce attempt's shuffle (epoch ms), 0 otherwise
 * @param finishTime        attempt end (epoch ms)
 * @param error             the attempt's diagnostics, empty if none
 */
public record AttemptSummary(String attemptId, TaskType type, String state, int shufflePort, String containerId,
                             long startTime, long shuffleFinishTime, long finishTime, String error) {

    /** True for an attempt that finished successfully. */
    public boolean succeeded() {
        return "SUCCEEDED".equals(state);
    }

    /** Shuffle duration of a successful reduce attempt (ms from attempt start to shuffle end), else 0. */
    public long shuffleMillis() {
        return type == TaskType.REDUCE && succeeded() && shuffleFinishTime > 0 ? shuffleFinishTime - startTime : 0;
    }
}
