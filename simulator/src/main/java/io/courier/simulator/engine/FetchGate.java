package io.courier.simulator.engine;

/**
 * The Hadoop fetch model (SCHEDULERS.md §11, "the paper's Hadoop baseline"): each reducer keeps at most
 * {@code parallelCopies} fetch flows running; the others wait and start, in ascending mapper order, as
 * running ones finish. With 0 every flow starts when its coflow is admitted. Owned by one run.
 */
final class FetchGate {
    private final FlowTable table;
    private final int limit;
    /** Per coflow, per reducer queue: the position of the next flow to start. */
    private final int[][] next;

    FetchGate(FlowTable table, int parallelCopies) {
        this.table = table;
        this.limit = parallelCopies == 0 ? Integer.MAX_VALUE : parallelCopies;
        this.next = new int[table.fetchQueues.length][];
        for (int c = 0; c < next.length; c++) {
            next[c] = new int[table.fetchQueues[c].length];
        }
    }

    /** Starts the first fetches of every reducer of a newly admitted coflow. */
    void admit(int coflow) {
        int[][] queues = table.fetchQueues[coflow];
        for (int r = 0; r < queues.length; r++) {
            int n = Math.min(limit, queues[r].length);
            for (int i = 0; i < n; i++) {
                table.state[queues[r][i]] = FlowTable.RUNNING;
            }
            next[coflow][r] = n;
        }
    }

    /** A fetch finished: its reducer starts the next waiting one, if any; true when one started. */
    boolean finished(int flow) {
        int c = table.coflowOf[flow];
        int r = table.queueOf[flow];
        int[] queue = table.fetchQueues[c][r];
        if (next[c][r] < queue.length) {
            table.state[queue[next[c][r]++]] = FlowTable.RUNNING;
            return true;
        }
        return false;
    }
}
