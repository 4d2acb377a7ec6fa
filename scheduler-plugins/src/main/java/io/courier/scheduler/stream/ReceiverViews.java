package io.courier.scheduler.stream;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.FlowId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Splits a {@link ClusterState} into what each receiver would know at one epoch (SCHEDULERS.md §7): per
 * (coflow, receiver) the bytes received {@code x}, flows seen {@code n} and finished {@code n^fin}, and the
 * Information-Relay sum {@code S} built from the previous epoch's {@code x} of the peer receivers that share a
 * sender with it, since a shared sender piggy-backs them one epoch late. It also records this epoch's {@code x}
 * (next epoch's relay) and per-flow bytes (next epoch's stall detection). Immutable.
 *
 * <p>The cluster state carries no sub-coflow ids, so {@code m = 1} (single-stage traces such as FB2010), and no
 * DAG, so Child-to-Parent contributes nothing here.
 */
final class ReceiverViews {
    private final Map<Integer, List<SubCoflowObservation>> byReceiver;
    private final Map<CoflowId, ReceivedBytes> received;
    private final Map<FlowId, Double> sent;

    private ReceiverViews(Map<Integer, List<SubCoflowObservation>> byReceiver,
            Map<CoflowId, ReceivedBytes> received, Map<FlowId, Double> sent) {
        this.byReceiver = byReceiver;
        this.received = received;
        this.sent = sent;
    }

    /**
     * @param state          the current state (sizes may be hidden; they are never read)
     * @param relayed        {@link #received()} of the previous epoch
     * @param previousSent   {@link #sent()} of the previous epoch, or {@code null} when stalls are not tracked
     */
    static ReceiverViews of(ClusterState state, Map<CoflowId, ReceivedBytes> relayed,
            Map<FlowId, Double> previousSent) {
        return of(state, relayed, previousSent, new SubCoflowShapes());
    }

    /** As {@link #of(ClusterState, Map, Map)}, with the coflows' shapes kept in {@code shapes} across epochs. */
    static ReceiverViews of(ClusterState state, Map<CoflowId, ReceivedBytes> relayed,
            Map<FlowId, Double> previousSent, SubCoflowShapes shapes) {
        Map<Integer, List<SubCoflowObservation>> byReceiver = new TreeMap<>();
        Map<CoflowId, ReceivedBytes> received = new HashMap<>(state.coflowCount() * 2);
        Map<FlowId, Double> sentNow = previousSent == null ? Collections.<FlowId, Double>emptyMap()
                : new HashMap<FlowId, Double>(state.flowCount() * 2);
        for (int c = 0; c < state.coflowCount(); c++) {
            CoflowId id = state.coflow(c).id();
            SubCoflowShapes.Shape shape = shapes.of(state, c);
            int receivers = shape.hosts.size();
            double[] x = new double[receivers];
            int[] n = new int[receivers];
            int[] finished = new int[receivers];
            boolean[] stalled = new boolean[receivers];
            int[] flows = state.flowsOf(c);
            for (int k = 0; k < flows.length; k++) {
                // Endpoints and bytes from the state's columns: no flow object unless stalls are tracked.
                int f = flows[k];
                int r = shape.receiverOf[k];
                double sent = state.sent(f);
                x[r] += sent;
                n[r]++;
                if (state.finished(f)) {
                    finished[r]++;
                } else if (previousSent != null) {
                    FlowId fid = state.flow(f).id();
                    sentNow.put(fid, sent);
                    Double before = previousSent.get(fid);
                    if (before != null && sent - before <= 1e-6 * Math.max(1.0, before)) {
                        stalled[r] = true; // EPS_BYTES of SCHEDULERS.md §0.4: no byte arrived this epoch
                    }
                }
            }
            ReceivedBytes before = relayed.get(id);
            // NaN: that receiver relayed nothing (an x is never NaN)
            double[] lastX = before == null ? null : before.inOrderOf(shape.hostArray);
            for (int r = 0; r < receivers; r++) {
                SubCoflowObservation o = SubCoflowObservation.builder(id)
                        .bytesReceived(x[r])
                        .flows(n[r], finished[r])
                        .relayedBytes(lastX == null ? 0.0 : relayedTo(shape.peers[r], lastX))
                        .stalled(stalled[r])
                        .build();
                List<SubCoflowObservation> list = byReceiver.get(shape.hosts.get(r));
                if (list == null) {
                    list = new ArrayList<>();
                    byReceiver.put(shape.hosts.get(r), list);
                }
                list.add(o);
            }
            received.put(id, new ReceivedBytes(shape.hostArray, x));
        }
        shapes.epochDone();
        for (Map.Entry<Integer, List<SubCoflowObservation>> e : byReceiver.entrySet()) {
            e.setValue(Collections.unmodifiableList(e.getValue()));
        }
        return new ReceiverViews(Collections.unmodifiableMap(byReceiver), Collections.unmodifiableMap(received),
                Collections.unmodifiableMap(sentNow));
    }

    /** S of a receiver: last epoch's x of its peers (every other receiver sharing a sender with it), in peer order. */
    private static double relayedTo(int[] peers, double[] lastX) {
        double sum = 0;
        for (int p : peers) {
            if (!Double.isNaN(lastX[p])) {
                sum += lastX[p];
            }
        }
        return sum;
    }

    /** Observations per receiving host (ascending), each list in coflow order (arrival, id). */
    Map<Integer, List<SubCoflowObservation>> byReceiver() {
        return byReceiver;
    }

    /** {@code x_{c,r}} of this epoch by coflow and receiving host: the next epoch's relay. */
    Map<CoflowId, ReceivedBytes> received() {
        return received;
    }

    /** Bytes of every unfinished flow at this epoch (empty when stalls are not tracked). */
    Map<FlowId, Double> sent() {
        return sent;
    }
}
