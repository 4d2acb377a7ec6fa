package io.courier.scheduler.properties;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.properties.RandomStates.CoflowSpec;
import io.courier.scheduler.properties.RandomStates.FlowSpec;
import io.courier.scheduler.properties.RandomStates.LinkSpec;
import io.courier.scheduler.properties.RandomStates.NetworkSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A random cluster state built from its description (see {@link RandomStates}). Every coflow keeps at
 * least one unfinished flow; unfinished flows have {@code 0 <= sent < size}, finished ones
 * {@code sent = size}. Flow ids are a permutation of the generation order, and flows are optionally added
 * in id order (interleaving coflows), so that index order, id order and coflow order all differ.
 * {@link #toString()} prints the whole state, which is what jqwik shows for a falsified sample.
 */
final class GeneratedState {
    private final NetworkSpec networkSpec;
    private final double now;
    private final List<CoflowSpec> coflowSpecs;
    private final int idStride;
    private final boolean interleave;
    private final ClusterState state;

    GeneratedState(NetworkSpec network, double now, List<CoflowSpec> coflows, int idStride, boolean interleave) {
        this.networkSpec = network;
        this.now = now;
        this.coflowSpecs = coflows;
        this.idStride = idStride;
        this.interleave = interleave;
        this.state = build();
    }

    ClusterState state() {
        return state;
    }

    private ClusterState build() {
        NetworkSpec ns = networkSpec;
        Network.Builder nb = Network.builder();
        for (int h = 0; h < ns.hosts; h++) {
            double up = ns.uniform ? ns.scale : ns.scale * ns.portMultipliers.get(2 * h);
            double down = ns.uniform ? ns.scale : ns.scale * ns.portMultipliers.get(2 * h + 1);
            nb.host("h" + h, up, down);
        }
        for (int l = 0; l < ns.links.size(); l++) {
            nb.link("L" + l, ns.scale * ns.links.get(l).capacityMultiplier);
        }
        Network network = nb.build();
        ClusterState.Builder b = ClusterState.builder(network).now(now);
        for (int l = 0; l < ns.links.size(); l++) {
            LinkSpec ls = ns.links.get(l);
            b.linkEstimate(l, network.capacity(network.link(l)) * ls.estimateFraction);
        }
        List<Flow> flows = new ArrayList<>();
        int k = 0;
        for (int c = 0; c < coflowSpecs.size(); c++) {
            CoflowSpec cs = coflowSpecs.get(c);
            CoflowId cid = CoflowId.of(c + 1);
            b.coflow(new Coflow(cid, now * cs.arrivalFraction, cs.weight));
            boolean anyUnfinished = false;
            for (FlowSpec fs : cs.flows) {
                anyUnfinished |= !fs.finished;
            }
            for (int i = 0; i < cs.flows.size(); i++) {
                // Keeps the coflow active: a coflow whose flows are all finished would have left the state.
                boolean finished = cs.flows.get(i).finished && (anyUnfinished || i > 0);
                flows.add(flow(network, cid, k++, cs.flows.get(i), finished));
            }
        }
        if (interleave) {
            flows.sort(Comparator.comparing(Flow::id));
        }
        return b.flows(flows).build();
    }

    private Flow flow(Network network, CoflowId coflow, int k, FlowSpec fs, boolean finished) {
        FlowId id = FlowId.of(1 + (long) k * idStride % RandomStates.ID_MODULUS);
        double size = networkSpec.scale * Math.pow(10.0, fs.sizeExponent);
        Flow.Builder fb = Flow.builder(id, coflow, fs.src % network.hostCount(), fs.dst % network.hostCount())
                .size(size);
        if (finished) {
            fb.sent(size).finished(true);
        } else {
            fb.sent(size * fs.sentFraction);
        }
        if (fs.measuredFraction != null) {
            fb.measuredRate(networkSpec.scale * fs.measuredFraction);
        }
        if (fs.desiredFraction != null) {
            fb.lastDesiredRate(networkSpec.scale * fs.desiredFraction);
        }
        int links = network.linkCount();
        int mask = links == 0 ? 0 : fs.pathMask & ((1 << links) - 1);
        List<Integer> path = new ArrayList<>();
        for (int l = 0; l < links; l++) {
            if ((mask & (1 << l)) != 0) {
                path.add(l);
            }
        }
        int[] p = new int[path.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = path.get(i);
        }
        return fb.path(p).build();
    }

    /**
     * The same state except that every unfinished flow's size becomes {@code sent + rem · factor}
     * ({@code factor > 0}, cycling through {@code factors}): what a non-clairvoyant scheduler must not see.
     */
    ClusterState withUnfinishedSizesScaled(List<Double> factors) {
        ClusterState.Builder b = ClusterState.builder(state.network()).now(state.now()).coflows(state.coflows());
        for (int l = 0; l < state.network().linkCount(); l++) {
            b.linkEstimate(l, state.linkEstimate(l));
        }
        for (int i = 0; i < state.flowCount(); i++) {
            Flow f = state.flow(i);
            if (f.finished()) {
                b.flow(f);
            } else {
                double factor = factors.get(i % factors.size());
                b.flow(f.toBuilder().size(f.sent() + f.remaining() * factor).build());
            }
        }
        return b.build();
    }

    @Override
    public String toString() {
        Network n = state.network();
        StringBuilder s = new StringBuilder("GeneratedState(now=").append(state.now()).append(", capacities={");
        for (int p = 0; p < n.resourceCount(); p++) {
            s.append(p == 0 ? "" : ", ").append(n.resourceName(p)).append('=').append(n.capacity(p));
        }
        s.append('}');
        for (int l = 0; l < n.linkCount(); l++) {
            s.append(l == 0 ? ", estimates={" : ", ").append(n.linkName(l)).append('=').append(state.linkEstimate(l));
            if (l == n.linkCount() - 1) {
                s.append('}');
            }
        }
        for (int c = 0; c < state.coflowCount(); c++) {
            s.append("\n  ").append(state.coflow(c)).append(':');
            for (int f : state.flowsOf(c)) {
                Flow fl = state.flow(f);
                s.append("\n    ").append(fl);
                if (fl.path().length > 0) {
                    s.append(" path=").append(Arrays.toString(fl.path()));
                }
                if (fl.hasMeasuredRate()) {
                    s.append(" measured=").append(fl.measuredRate());
                }
                if (fl.hasLastDesiredRate()) {
                    s.append(" lastDesired=").append(fl.lastDesiredRate());
                }
            }
        }
        return s.append(')').toString();
    }
}
