package io.courier.simulator.engine;

import io.courier.simulator.workload.Workload;
import io.courier.simulator.workload.WorkloadCoflow;
import io.courier.simulator.workload.WorkloadFlow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The mutable progress of every flow of a workload, in flat arrays indexed by a global flow number
 * (coflows in workload order, flows in coflow order). Owned by one {@link FluidSimulator} run and used
 * from its thread only.
 */
final class FlowTable {
    /** A flow is not yet started (its coflow has not been admitted, or its reducer's fetch slots are full). */
    static final byte WAITING = 0;
    static final byte RUNNING = 1;
    static final byte DONE = 2;

    final int flows;
    final int[] coflowOf;
    final int[] src;
    final int[] dst;
    final double[] size;
    final double[] sent;
    final byte[] state;
    /** {@code state == DONE}, kept beside it so that snapshots copy it in bulk. */
    final boolean[] done;
    /** Rate in force over the last interval (NaN before the first), reported to schedulers as measured. */
    final double[] lastRate;
    /** Flow numbers of each coflow: consecutive, ascending (snapshots copy a coflow's columns in bulk). */
    final int[][] flowsOfCoflow;
    /** Per coflow: its reducers' fetch queues (flow numbers in ascending mapper order). */
    final int[][][] fetchQueues;
    /** Fetch-queue number (within its coflow) of every flow. */
    final int[] queueOf;

    FlowTable(Workload workload) {
        List<WorkloadCoflow> coflows = workload.coflows();
        this.flows = workload.flowCount();
        this.coflowOf = new int[flows];
        this.src = new int[flows];
        this.dst = new int[flows];
        this.size = new double[flows];
        this.sent = new double[flows];
        this.state = new byte[flows];
        this.done = new boolean[flows];
        this.lastRate = new double[flows];
        Arrays.fill(lastRate, Double.NaN);
        this.flowsOfCoflow = new int[coflows.size()][];
        this.fetchQueues = new int[coflows.size()][][];
        this.queueOf = new int[flows];
        int k = 0;
        for (int c = 0; c < coflows.size(); c++) {
            List<WorkloadFlow> fs = coflows.get(c).flows();
            int[] members = new int[fs.size()];
            Map<Integer, List<Integer>> byReducer = new HashMap<>();
            List<Integer> reducerOrder = new ArrayList<>();
            for (int j = 0; j < fs.size(); j++) {
                WorkloadFlow f = fs.get(j);
                coflowOf[k] = c;
                src[k] = f.src();
                dst[k] = f.dst();
                size[k] = f.bytes();
                members[j] = k;
                List<Integer> q = byReducer.get(f.reducer());
                if (q == null) {
                    q = new ArrayList<>();
                    byReducer.put(f.reducer(), q);
                    reducerOrder.add(f.reducer());
                }
                q.add(k);
                k++;
            }
            flowsOfCoflow[c] = members;
            int[][] queues = new int[reducerOrder.size()][];
            for (int r = 0; r < queues.length; r++) {
                List<Integer> q = byReducer.get(reducerOrder.get(r));
                // Which waiting fetch starts next is unspecified; the spec proposes ascending mapper id.
                final List<WorkloadFlow> fl = fs;
                final int base = members[0];
                q.sort((a, b) -> Integer.compare(fl.get(a - base).mapper(), fl.get(b - base).mapper()));
                queues[r] = new int[q.size()];
                for (int i = 0; i < q.size(); i++) {
                    queues[r][i] = q.get(i);
                    queueOf[q.get(i)] = r;
                }
            }
            fetchQueues[c] = queues;
        }
    }

    double remaining(int flow) {
        return Math.max(0.0, size[flow] - sent[flow]);
    }
}
