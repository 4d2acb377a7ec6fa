package io.courier.scheduler.bench;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.simulator.trace.TraceCoflow;
import io.courier.simulator.trace.TraceFlow;
import io.courier.simulator.trace.TraceFlows;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

/**
 * Builds the {@link ClusterState} of a snapshot from its active coflows, deterministically for a seed.
 *
 * <ul>
 *   <li>Network: a rack-level big switch, every port at the given capacity; flows are built the CoflowSim
 *       way ({@link TraceFlows.Sizing#COFLOWSIM}), with flow ids 1, 2, … in coflow order.</li>
 *   <li>Progress: a flow of a coflow whose lifetime has elapsed by fraction {@code φ} has sent
 *       {@code size · min(1, 2φu)}, {@code u} uniform in [0, 1); on average {@code φ} of its bytes, and the
 *       flows whose draw reaches the size are finished (they stay in the state, as attained service).
 *       A coflow that has just arrived has sent nothing, and every coflow keeps at least one
 *       unfinished flow (if all draws finish, its last flow gets progress {@code φ}). So LAS queues
 *       (Aalo, Fai) and IAOA's attained service differ between coflows.</li>
 *   <li>Weights: uniform in {1, …, 5}, the convention for weighted reproductions (PAPER_RESULTS.md §6).</li>
 *   <li>Rates: every unfinished flow's measured and last desired rate is CoflowSim's fair share
 *       {@code min(cap / n_up, cap / n_down)} over the unfinished flows on its two ports (so that schedulers
 *       reading them, like SkipL, see plausible values); finished flows have 0.</li>
 * </ul>
 */
public final class SnapshotAssembler {
    private SnapshotAssembler() {
    }

    public static ClusterState assemble(int racks, double capacity, double now, List<ActiveCoflow> active, long seed) {
        Network network = Network.uniform(racks, capacity);
        Random random = new Random(seed);
        ClusterState.Builder b = ClusterState.builder(network).now(now);
        List<Flow.Builder> flows = new ArrayList<>();
        List<TraceFlow> shapes = new ArrayList<>();
        BitSet finishedFlows = new BitSet();
        int[] unfinishedUp = new int[racks];
        int[] unfinishedDown = new int[racks];
        long nextId = 1;
        for (ActiveCoflow a : active) {
            TraceCoflow c = a.coflow();
            if (c.arrivalSeconds() > now) {
                throw new IllegalArgumentException("coflow " + c.id() + " arrives at " + c.arrivalSeconds()
                        + " s, after the snapshot instant " + now + " s");
            }
            CoflowId id = CoflowId.of(c.id());
            b.coflow(new Coflow(id, c.arrivalSeconds(), 1 + random.nextInt(5)));
            List<TraceFlow> coflowFlows = TraceFlows.expand(c, TraceFlows.Sizing.COFLOWSIM);
            double[] fraction = progress(random, a.elapsed(), coflowFlows.size());
            for (int k = 0; k < fraction.length; k++) {
                TraceFlow tf = coflowFlows.get(k);
                boolean finished = fraction[k] >= 1.0;
                Flow.Builder f = Flow.builder(FlowId.of(nextId++), id, tf.mapperRack(), tf.reducerRack())
                        .size(tf.bytes()).sent(finished ? tf.bytes() : fraction[k] * tf.bytes()).finished(finished);
                if (finished) {
                    finishedFlows.set(flows.size());
                } else {
                    unfinishedUp[tf.mapperRack()]++;
                    unfinishedDown[tf.reducerRack()]++;
                }
                flows.add(f);
                shapes.add(tf);
            }
        }
        for (int i = 0; i < flows.size(); i++) {
            TraceFlow tf = shapes.get(i);
            double rate = finishedFlows.get(i) ? 0.0
                    : Math.min(capacity / unfinishedUp[tf.mapperRack()], capacity / unfinishedDown[tf.reducerRack()]);
            b.flow(flows.get(i).measuredRate(rate).lastDesiredRate(rate).build());
        }
        return b.build();
    }

    /** Sent fractions of a coflow's {@code n} flows; 1 means finished, and at least one stays below 1. */
    private static double[] progress(Random random, double elapsed, int n) {
        double[] fraction = new double[n];
        boolean allFinished = true;
        for (int k = 0; k < n; k++) {
            fraction[k] = Math.min(1.0, 2 * elapsed * random.nextDouble());
            allFinished &= fraction[k] >= 1.0;
        }
        if (allFinished) {
            // An active coflow has an unfinished flow; its last flow keeps the average progress instead.
            fraction[n - 1] = elapsed;
        }
        return fraction;
    }
}
