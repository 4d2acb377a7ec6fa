package io.courier.scheduler.stream;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.CoflowId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who relays to whom inside each coflow, kept from epoch to epoch: a coflow's receivers (hosts in the order its
 * flows first reach them), each flow's receiver, and each receiver's peers — the other receivers that share a sender
 * with it, in the order the Information-Relay sum adds them (its senders in order, each one's receivers in order).
 * All of it depends only on the coflow's flows' endpoints, which do not change while it is active, so it is derived
 * once per coflow instead of at every epoch (for a wide shuffle that derivation is R²·S set insertions); every epoch
 * checks the endpoints against the ones it was derived from and derives again on any difference. Owned by one
 * {@link StreamScheduler}; used by its thread only.
 */
final class SubCoflowShapes {
    /** One coflow's shape. */
    static final class Shape {
        final int[] src;
        final int[] dst;
        /** Receiving hosts by local receiver index. */
        final List<Integer> hosts;
        /** The same hosts as an array. */
        final int[] hostArray;
        /** The local receiver index of each flow, in {@code flowsOf} order. */
        final int[] receiverOf;
        /** Each receiver's peers (local indices), in the order the relay sum adds them. */
        final int[][] peers;

        private Shape(int[] src, int[] dst, List<Integer> hosts, int[] receiverOf, int[][] peers) {
            this.src = src;
            this.dst = dst;
            this.hosts = hosts;
            this.hostArray = hosts.stream().mapToInt(Integer::intValue).toArray();
            this.receiverOf = receiverOf;
            this.peers = peers;
        }

        boolean fits(ClusterState state, int[] flows) {
            if (flows.length != src.length) {
                return false;
            }
            for (int k = 0; k < flows.length; k++) {
                if (state.src(flows[k]) != src[k] || state.dst(flows[k]) != dst[k]) {
                    return false;
                }
            }
            return true;
        }
    }

    private Map<CoflowId, Shape> shapes = new HashMap<>();
    private Map<CoflowId, Shape> used = new HashMap<>();

    /** The shape of coflow {@code c} of {@code state}, kept or derived. */
    Shape of(ClusterState state, int c) {
        CoflowId id = state.coflow(c).id();
        int[] flows = state.flowsOf(c);
        Shape s = shapes.get(id);
        if (s == null || !s.fits(state, flows)) {
            s = derive(state, flows);
        }
        used.put(id, s);
        return s;
    }

    /** Ends an epoch: the shapes of coflows the epoch did not ask for (they left) are dropped. */
    void epochDone() {
        shapes = used;
        used = new HashMap<>(shapes.size() * 2);
    }

    private static Shape derive(ClusterState state, int[] flows) {
        int[] src = new int[flows.length];
        int[] dst = new int[flows.length];
        int[] receiverOf = new int[flows.length];
        List<Integer> hosts = new ArrayList<>();
        Map<Integer, Integer> receiverIndex = new HashMap<>();
        Map<Integer, Integer> senderIndex = new HashMap<>();
        List<Set<Integer>> receiversOfSender = new ArrayList<>();
        List<Set<Integer>> sendersOfReceiver = new ArrayList<>();
        for (int k = 0; k < flows.length; k++) {
            src[k] = state.src(flows[k]);
            dst[k] = state.dst(flows[k]);
            Integer r = receiverIndex.get(dst[k]);
            if (r == null) {
                r = hosts.size();
                receiverIndex.put(dst[k], r);
                hosts.add(dst[k]);
                sendersOfReceiver.add(new LinkedHashSet<Integer>());
            }
            Integer s = senderIndex.get(src[k]);
            if (s == null) {
                s = receiversOfSender.size();
                senderIndex.put(src[k], s);
                receiversOfSender.add(new LinkedHashSet<Integer>());
            }
            receiverOf[k] = r;
            receiversOfSender.get(s).add(r);
            sendersOfReceiver.get(r).add(s);
        }
        int[][] peers = new int[hosts.size()][];
        int[] seen = new int[hosts.size()];
        for (int r = 0; r < peers.length; r++) {
            int mark = r + 1;
            seen[r] = mark; // r itself is no peer
            List<Integer> order = new ArrayList<>();
            for (int s : sendersOfReceiver.get(r)) {
                for (int p : receiversOfSender.get(s)) {
                    if (seen[p] != mark) {
                        seen[p] = mark;
                        order.add(p);
                    }
                }
            }
            peers[r] = order.stream().mapToInt(Integer::intValue).toArray();
        }
        return new Shape(src, dst, hosts, receiverOf, peers);
    }

    /** How many coflows' shapes are kept. */
    int kept() {
        return shapes.size();
    }
}
