package io.courier.scheduler.stream;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.FlowId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    private final Map<CoflowId, Map<Integer, Double>> received;
    private final Map<FlowId, Double> sent;

    private ReceiverViews(Map<Integer, List<SubCoflowObservation>> byReceiver,
            Map<CoflowId, Map<Integer, Double>> received, Map<FlowId, Double> sent) {
        this.byReceiver = byReceiver;
        this.received = received;
        this.sent = sent;
    }

    /**
     * @param state          the current state (sizes may be hidden; they are never read)
     * @param relayed        {@link #received()} of the previous epoch
     * @param previousSent   {@link #sent()} of the previous epoch, or {@code null} when stalls are not tracked
     */
    static ReceiverViews of(ClusterState state, Map<CoflowId, Map<Integer, Double>> relayed,
            Map<FlowId, Double> previousSent) {
        Map<Integer, List<SubCoflowObservation>> byReceiver = new TreeMap<>();
        Map<CoflowId, Map<Integer, Double>> received = new HashMap<>(state.coflowCount() * 2);
        Map<FlowId, Double> sentNow = previousSent == null ? Collections.<FlowId, Double>emptyMap()
                : new HashMap<FlowId, Double>(state.flowCount() * 2);
        for (int c = 0; c < state.coflowCount(); c++) {
            CoflowId id = state.coflow(c).id();
            SubCoflows sub = new SubCoflows();
            for (int f : state.flowsOf(c)) {
                // Endpoints and bytes from the state's columns: no flow object unless stalls are tracked.
                int r = sub.receiver(state.dst(f));
                sub.link(sub.sender(state.src(f)), r);
                double sent = state.sent(f);
                sub.x[r] += sent;
                sub.n[r]++;
                if (state.finished(f)) {
                    sub.finished[r]++;
                } else if (previousSent != null) {
                    FlowId fid = state.flow(f).id();
                    sentNow.put(fid, sent);
                    Double before = previousSent.get(fid);
                    if (before != null && sent - before <= 1e-6 * Math.max(1.0, before)) {
                        sub.stalled[r] = true; // EPS_BYTES of SCHEDULERS.md §0.4: no byte arrived this epoch
                    }
                }
            }
            Map<Integer, Double> before = relayed.get(id);
            Map<Integer, Double> xNow = new HashMap<>(sub.hosts.size() * 2);
            for (int r = 0; r < sub.hosts.size(); r++) {
                xNow.put(sub.hosts.get(r), sub.x[r]);
                SubCoflowObservation o = SubCoflowObservation.builder(id)
                        .bytesReceived(sub.x[r])
                        .flows(sub.n[r], sub.finished[r])
                        .relayedBytes(before == null ? 0.0 : sub.relayedTo(r, before))
                        .stalled(sub.stalled[r])
                        .build();
                List<SubCoflowObservation> list = byReceiver.get(sub.hosts.get(r));
                if (list == null) {
                    list = new ArrayList<>();
                    byReceiver.put(sub.hosts.get(r), list);
                }
                list.add(o);
            }
            received.put(id, xNow);
        }
        for (Map.Entry<Integer, List<SubCoflowObservation>> e : byReceiver.entrySet()) {
            e.setValue(Collections.unmodifiableList(e.getValue()));
        }
        return new ReceiverViews(Collections.unmodifiableMap(byReceiver), Collections.unmodifiableMap(received),
                Collections.unmodifiableMap(sentNow));
    }

    /** Observations per receiving host (ascending), each list in coflow order (arrival, id). */
    Map<Integer, List<SubCoflowObservation>> byReceiver() {
        return byReceiver;
    }

    /** {@code x_{c,r}} of this epoch by coflow and receiving host: the next epoch's relay. */
    Map<CoflowId, Map<Integer, Double>> received() {
        return received;
    }

    /** Bytes of every unfinished flow at this epoch (empty when stalls are not tracked). */
    Map<FlowId, Double> sent() {
        return sent;
    }

    /** The sub-coflows of one coflow: receivers and senders with dense local indices, and who serves whom. */
    private static final class SubCoflows {
        final List<Integer> hosts = new ArrayList<>();
        final Map<Integer, Integer> receiverIndex = new HashMap<>();
        final Map<Integer, Integer> senderIndex = new HashMap<>();
        final List<Set<Integer>> receiversOfSender = new ArrayList<>();
        final List<Set<Integer>> sendersOfReceiver = new ArrayList<>();
        double[] x = new double[4];
        int[] n = new int[4];
        int[] finished = new int[4];
        boolean[] stalled = new boolean[4];

        int receiver(int host) {
            Integer r = receiverIndex.get(host);
            if (r == null) {
                r = hosts.size();
                receiverIndex.put(host, r);
                hosts.add(host);
                sendersOfReceiver.add(new LinkedHashSet<Integer>());
                if (r == x.length) {
                    int len = 2 * x.length;
                    x = Arrays.copyOf(x, len);
                    n = Arrays.copyOf(n, len);
                    finished = Arrays.copyOf(finished, len);
                    stalled = Arrays.copyOf(stalled, len);
                }
            }
            return r;
        }

        int sender(int host) {
            Integer s = senderIndex.get(host);
            if (s == null) {
                s = receiversOfSender.size();
                senderIndex.put(host, s);
                receiversOfSender.add(new LinkedHashSet<Integer>());
            }
            return s;
        }

        void link(int sender, int receiver) {
            receiversOfSender.get(sender).add(receiver);
            sendersOfReceiver.get(receiver).add(sender);
        }

        /**
         * S of receiver r: last epoch's x of every other receiver that shares at least one sender with r, added in the
         * order the peers are first met (r's senders in order, each one's receivers in order). A wide coflow has
         * hundreds of receivers each reached through hundreds of senders: the peers are marked in an array rather
         * than collected in a set.
         */
        double relayedTo(int r, Map<Integer, Double> lastEpoch) {
            if (lastX == null || lastXFor != lastEpoch) {
                lastX = new double[hosts.size()];
                for (int p = 0; p < lastX.length; p++) {
                    Double v = lastEpoch.get(hosts.get(p));
                    lastX[p] = v == null ? Double.NaN : v; // NaN: the peer sent nothing to relay
                }
                lastXFor = lastEpoch;
                seen = new int[hosts.size()];
            }
            int mark = ++visit;
            seen[r] = mark; // r itself is no peer
            double sum = 0;
            for (int sender : sendersOfReceiver.get(r)) {
                for (int p : receiversOfSender.get(sender)) {
                    if (seen[p] != mark) {
                        seen[p] = mark;
                        if (!Double.isNaN(lastX[p])) {
                            sum += lastX[p];
                        }
                    }
                }
            }
            return sum;
        }

        // relayedTo's scratch, made on its first call (after every link): last epoch's x by local receiver index, and
        // the visit mark of each receiver.
        private double[] lastX;
        private Map<Integer, Double> lastXFor;
        private int[] seen;
        private int visit;
    }
}
