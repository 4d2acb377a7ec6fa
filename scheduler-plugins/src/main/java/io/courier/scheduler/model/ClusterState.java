package io.courier.scheduler.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An immutable snapshot handed to a scheduler (SCHEDULERS.md §0.2): the time, the network, the active
 * coflows and all their flows (finished flows stay, so their bytes still count for LAS-style schedulers).
 *
 * <p>Flows and coflows get dense indices: coflows are ordered by (arrival, id) — the global tie rule —
 * and flows keep the order they were added in. Schedulers work on these indices with arrays, which is
 * what keeps one decision over tens of thousands of flows within a 10 ms epoch.
 */
public final class ClusterState {
    private final double now;
    private final Network network;
    private final List<Coflow> coflows;
    private final List<Flow> flows;
    private final double[] linkEstimate;
    private final boolean sizesVisible;
    // Derived indexes, shared between a state and its size-hiding view.
    private final Map<CoflowId, Integer> coflowIndex;
    private final FlowIndex flowIndex;
    private final int[] coflowOfFlow;
    private final int[][] flowsOfCoflow;
    private final int[][] resources;
    private final int[][] unfinishedOfCoflow;
    // Per-flow columns of the hot attributes, indexed like flows: the primitives read them at every
    // decision, and walking primitive arrays is several times cheaper than reaching each Flow object.
    private final FlowColumns columns;
    // Room for the memo of a size-hiding view's flows, lent by a reusable ColumnarStateBuilder; null = fresh.
    private final Flow[] viewBuffer;
    /** {@link #unfinishedFlows}, computed on first use; never handed out (callers get a copy). */
    private volatile int[] unfinishedMemo;
    /** Per-coflow port loads and ports, computed on first use; shared with this state's size-hiding views. */
    private final CoflowAggregates aggregates;

    // Package-private: ClusterState.Builder and ColumnarStateBuilder validate what they pass.
    ClusterState(double now, Network network, List<Coflow> coflows, List<Flow> flows,
            double[] linkEstimate, boolean sizesVisible, Map<CoflowId, Integer> coflowIndex,
            FlowIndex flowIndex, int[] coflowOfFlow, int[][] flowsOfCoflow, int[][] resources,
            int[][] unfinishedOfCoflow, FlowColumns columns) {
        this(now, network, coflows, flows, linkEstimate, sizesVisible, coflowIndex, flowIndex, coflowOfFlow,
                flowsOfCoflow, resources, unfinishedOfCoflow, columns, null, new CoflowAggregates(coflows.size()));
    }

    ClusterState(double now, Network network, List<Coflow> coflows, List<Flow> flows,
            double[] linkEstimate, boolean sizesVisible, Map<CoflowId, Integer> coflowIndex,
            FlowIndex flowIndex, int[] coflowOfFlow, int[][] flowsOfCoflow, int[][] resources,
            int[][] unfinishedOfCoflow, FlowColumns columns, Flow[] viewBuffer, CoflowAggregates aggregates) {
        this.viewBuffer = viewBuffer;
        this.aggregates = aggregates;
        this.now = now;
        this.network = network;
        this.coflows = coflows;
        this.flows = flows;
        this.linkEstimate = linkEstimate;
        this.sizesVisible = sizesVisible;
        this.coflowIndex = coflowIndex;
        this.flowIndex = flowIndex;
        this.coflowOfFlow = coflowOfFlow;
        this.flowsOfCoflow = flowsOfCoflow;
        this.resources = resources;
        this.unfinishedOfCoflow = unfinishedOfCoflow;
        this.columns = columns;
    }

    public static Builder builder(Network network) {
        return new Builder(network);
    }

    public double now() {
        return now;
    }

    public Network network() {
        return network;
    }

    /** Active coflows ordered by (arrival, id). */
    public List<Coflow> coflows() {
        return coflows;
    }

    public int coflowCount() {
        return coflows.size();
    }

    public Coflow coflow(int coflowIndex) {
        return coflows.get(coflowIndex);
    }

    /** Index of a coflow in {@link #coflows()}, or -1 when it is not active. */
    public int indexOf(CoflowId id) {
        Integer i = coflowIndex.get(id);
        return i == null ? -1 : i;
    }

    /** {@code flow(i).id().value()}, without reaching the flow object. */
    public long flowIdValue(int flowIndex) {
        if (flowIndex >= flows.size()) {
            throw new IndexOutOfBoundsException("flow index " + flowIndex + " of " + flows.size());
        }
        return this.flowIndex.idAt(flowIndex);
    }

    /** Index of a flow in {@link #flows()}, or -1 when it is not part of this state. */
    public int indexOf(FlowId id) {
        return flowIndex.indexOf(id);
    }

    public List<Flow> flows() {
        return flows;
    }

    public int flowCount() {
        return flows.size();
    }

    public Flow flow(int flowIndex) {
        return flows.get(flowIndex);
    }

    /** The coflow index of a flow. */
    public int coflowOf(int flowIndex) {
        return coflowOfFlow[flowIndex];
    }

    /** Flow indices of a coflow (finished ones included) in ascending flow-id order. Do not modify. */
    public int[] flowsOf(int coflowIndex) {
        return flowsOfCoflow[coflowIndex];
    }

    /** Resource indices used by a flow: up(src), down(dst), then its extra links. Do not modify. */
    public int[] resourcesOf(int flowIndex) {
        return resources[flowIndex];
    }

    /**
     * Adds {@code amount} to {@code perResource} at each resource of a flow ({@link #resourcesOf}). On a big switch
     * those are its two host ports, read from the columns rather than through the flow's resource array, a pointer per
     * flow on the hot paths that call this for every flow with a rate (the same two entries, so sums over flows come
     * out the same bit for bit).
     */
    public void addToResources(int flowIndex, double amount, double[] perResource) {
        if (network.linkCount() == 0) {
            perResource[network.up(columns.src[flowIndex])] += amount;
            perResource[network.down(columns.dst[flowIndex])] += amount;
        } else {
            for (int p : resources[flowIndex]) {
                perResource[p] += amount;
            }
        }
    }

    /**
     * True when {@code other} lists the same flows at the same indices: it is this state or a view of it
     * ({@link #viewFor}), which share their indexes.
     */
    public boolean hasSameFlowsAs(ClusterState other) {
        return other == this || other.flowIndex == flowIndex;
    }

    /**
     * Whether {@code other} is this very snapshot or a view of it ({@link #viewFor}, {@link #withSizesHidden}): the
     * same flows with the same values. Stricter than {@link #hasSameFlowsAs}, which a revised state
     * ({@link ColumnarStateBuilder#revise}) also satisfies with other values; a view shares its state's per-coflow
     * sums, which every state built or revised has afresh.
     */
    public boolean isSnapshotOf(ClusterState other) {
        return other == this || other.aggregates == aggregates;
    }

    public boolean sizesVisible() {
        return sizesVisible;
    }

    /** Available-bandwidth estimate {@code B(l)} of an extra link; its capacity unless estimated. */
    public double linkEstimate(int link) {
        return linkEstimate[link];
    }

    /**
     * The capacities a scheduler plans against: port capacities, and for extra links the estimate
     * {@code B(l)} when {@code useLinkEstimates}, else the physical capacity. A fresh array.
     */
    public double[] residualCapacities(boolean useLinkEstimates) {
        double[] r = network.capacities();
        if (useLinkEstimates) {
            for (int l = 0; l < linkEstimate.length; l++) {
                r[network.link(l)] = linkEstimate[l];
            }
        }
        return r;
    }

    /**
     * Flow indices of the unfinished flows of a coflow, ascending flow id. Do not modify: schedulers ask
     * for it several times per coflow and decision, so it is computed once per state.
     */
    public int[] unfinishedFlowsOf(int coflowIndex) {
        return unfinishedOfCoflow[coflowIndex];
    }

    /** Indices of every unfinished flow, in flow order. A fresh array. */
    public int[] unfinishedFlows() {
        int[] all = unfinishedMemo;
        if (all == null) {
            // Found on first use: a driver that revises states between decisions would otherwise redo this list
            // for every one of them, and most schedulers never ask for it.
            // The coflows' (ascending) lists one after the other: in the usual state, whose coflows' flows are side
            // by side in coflow order, that already is flow order; a state built otherwise gets sorted.
            int open = 0;
            for (int[] list : unfinishedOfCoflow) {
                open += list.length;
            }
            all = new int[open];
            int k = 0;
            boolean ascending = true;
            for (int[] list : unfinishedOfCoflow) {
                if (list.length > 0) {
                    ascending &= k == 0 || list[0] > all[k - 1];
                    System.arraycopy(list, 0, all, k, list.length);
                    k += list.length;
                }
            }
            if (!ascending) {
                Arrays.sort(all);
            }
            unfinishedMemo = all;
        }
        return all.clone();
    }

    /** {@code flow(i).finished()}, without reaching the flow object. */
    public boolean finished(int flowIndex) {
        return columns.finished[flowIndex];
    }

    /** {@code flow(i).src()}, without reaching the flow object. */
    public int src(int flowIndex) {
        return columns.src[flowIndex];
    }

    /** {@code flow(i).dst()}, without reaching the flow object. */
    public int dst(int flowIndex) {
        return columns.dst[flowIndex];
    }

    /** {@code flow(i).sent()}, without reaching the flow object. */
    public double sent(int flowIndex) {
        return columns.sent[flowIndex];
    }

    /**
     * {@code flow(i).remaining()}, without reaching the flow object; the same visibility rules (throws
     * when the size is hidden from this view or unknown).
     */
    public double remaining(int flowIndex) {
        double r = columns.remaining[flowIndex];
        if (!sizesVisible || Double.isNaN(r)) {
            return flows.get(flowIndex).remaining(); // throws with the flow named
        }
        return r;
    }

    /**
     * Bytes sent by all flows of a coflow, finished ones included (attained service), summed in flow order. Computed
     * once per state and coflow; a revised state ({@link ColumnarStateBuilder#revise}), or the next whole state, keeps
     * the sums of coflows none of whose flows' sent bytes changed (under strict priority, the coflows held back).
     */
    public double sentBy(int coflowIndex) {
        Double total = aggregates.sentTotal(coflowIndex);
        if (total == null) {
            double s = 0;
            double[] sent = columns.sent;
            for (int f : flowsOfCoflow[coflowIndex]) {
                s += sent[f];
            }
            total = s;
            aggregates.sentTotal(coflowIndex, total);
        }
        return total;
    }

    /**
     * Bytes sent by all flows of a coflow, finished ones included, on each host port they touch: the sum over the
     * port's flows in flow order (seed 004's {@code L_C(p)} of Alg. 3). Computed once per state and coflow; a
     * revised state ({@link ColumnarStateBuilder#revise}), or the next whole state, keeps the sums of coflows none of
     * whose flows' sent bytes changed.
     */
    public PortSums sentPortSums(int coflowIndex) {
        PortSums sums = aggregates.sentSums(coflowIndex);
        if (sums == null) {
            sums = PortSums.of(flowsOfCoflow[coflowIndex], columns.src, columns.dst, columns.sent, network);
            aggregates.sentSums(coflowIndex, sums);
        }
        return sums;
    }

    /**
     * Remaining bytes of a coflow's unfinished flows on each host port: {@code [network().up(h)]} and
     * {@code [network().down(h)]}, {@code 2 · hostCount} entries (extra links are not included), each flow's
     * {@link #remaining} added to its up and its down port in flow order. Computed once per state and coflow; a
     * revised state ({@link ColumnarStateBuilder#revise}) keeps the sums of coflows none of whose flows changed. Do
     * not modify. Throws {@link HiddenInformationException} when sizes are hidden from this view or unknown.
     */
    public double[] remainingPortLoads(int coflowIndex) {
        int[] open = unfinishedOfCoflow[coflowIndex];
        if (!sizesVisible && open.length > 0) {
            remaining(open[0]); // throws with the flow named
        }
        double[] load = aggregates.loads(coflowIndex);
        if (load == null) {
            CoflowAggregates.StaleLoads stale = aggregates.staleLoads(coflowIndex);
            load = stale != null ? refreshed(coflowIndex, stale) : summed(open);
            aggregates.loads(coflowIndex, load);
        }
        return load;
    }

    /** Every unfinished flow's remaining bytes added to its up and its down port, in flow order. */
    private double[] summed(int[] open) {
        double[] load = new double[2 * network.hostCount()];
        double[] rem = columns.remaining;
        for (int f : open) {
            double r = rem[f];
            if (Double.isNaN(r)) {
                remaining(f); // an unknown size: throws with the flow named
            }
            load[network.up(columns.src[f])] += r;
            load[network.down(columns.dst[f])] += r;
        }
        return load;
    }

    /**
     * Earlier loads with the out-of-date ports summed again over the port's host group, whose flows ascend: the
     * additions {@link #summed} makes for that port, in the same order, so the same value to the last bit.
     */
    private double[] refreshed(int coflowIndex, CoflowAggregates.StaleLoads stale) {
        double[] load = stale.base.clone();
        double[] rem = columns.remaining;
        int hosts = network.hostCount();
        for (int p : stale.ports) {
            boolean up = p < hosts; // the loads' layout: up ports 0..hosts-1, then the down ports
            int host = up ? p : p - hosts;
            PortGroups g = up ? unfinishedBySrc(coflowIndex) : unfinishedByDst(coflowIndex);
            double sum = 0.0;
            for (int j = 0, n = g.count(host); j < n; j++) {
                int f = g.flow(host, j);
                double r = rem[f];
                if (Double.isNaN(r)) {
                    remaining(f); // an unknown size: throws with the flow named
                }
                sum += r;
            }
            load[p] = sum;
        }
        return load;
    }

    /**
     * The distinct source hosts of all a coflow's flows, finished ones included, ascending: a superset of its
     * unfinished flows' sources that does not shrink as flows finish, so that every later state of the coflow keeps
     * it (computed once per coflow, not per state). Do not modify.
     */
    public int[] sourceHostsOf(int coflowIndex) {
        return hosts(coflowIndex).src;
    }

    /** As {@link #sourceHostsOf}, the destination hosts. Do not modify. */
    public int[] destinationHostsOf(int coflowIndex) {
        return hosts(coflowIndex).dst;
    }

    private CoflowAggregates.Hosts hosts(int coflowIndex) {
        CoflowAggregates.Hosts h = aggregates.hosts(coflowIndex);
        if (h == null) {
            int[] members = flowsOfCoflow[coflowIndex];
            h = new CoflowAggregates.Hosts(distinct(members, columns.src), distinct(members, columns.dst));
            aggregates.hosts(coflowIndex, h);
        }
        return h;
    }

    /** The distinct values of {@code hostOf} over {@code flows}, ascending. */
    private int[] distinct(int[] flows, int[] hostOf) {
        boolean[] seen = new boolean[network.hostCount()];
        int n = 0;
        for (int f : flows) {
            int h = hostOf[f];
            if (!seen[h]) {
                seen[h] = true;
                n++;
            }
        }
        int[] hosts = new int[n];
        int k = 0;
        for (int h = 0; k < n; h++) {
            if (seen[h]) {
                hosts[k++] = h;
            }
        }
        return hosts;
    }

    /**
     * A coflow's unfinished flows grouped by source host (ascending flow index within a host). Computed once per
     * state and coflow; a revised state keeps the groups of coflows none of whose flows finished.
     */
    public PortGroups unfinishedBySrc(int coflowIndex) {
        return groups(CoflowAggregates.SRC, coflowIndex, columns.src);
    }

    /** As {@link #unfinishedBySrc}, by destination host. */
    public PortGroups unfinishedByDst(int coflowIndex) {
        return groups(CoflowAggregates.DST, coflowIndex, columns.dst);
    }

    private PortGroups groups(int side, int coflowIndex, int[] hostOf) {
        PortGroups g = aggregates.groups(side, coflowIndex);
        if (g == null) {
            g = PortGroups.of(unfinishedOfCoflow[coflowIndex], hostOf, network.hostCount());
            aggregates.groups(side, coflowIndex, g);
        }
        return g;
    }

    /**
     * The view a scheduler with these needs is allowed to see: without {@link Info#SIZES}, every flow's
     * size and remaining bytes throw {@link HiddenInformationException}.
     */
    public ClusterState viewFor(Set<Info> needs) {
        return needs.contains(Info.SIZES) ? this : withSizesHidden();
    }

    public ClusterState withSizesHidden() {
        if (!sizesVisible) {
            return this;
        }
        // Hidden twins are made when a scheduler reads a flow (and memoized by the flow), not up front.
        List<Flow> visible = flows;
        List<Flow> hidden = viewBuffer != null
                ? LazyFlowList.clearedOnFirstRead(viewBuffer, flows.size(), i -> visible.get(i).withSizeHidden())
                : new LazyFlowList(flows.size(), i -> visible.get(i).withSizeHidden());
        return new ClusterState(now, network, coflows, hidden, linkEstimate, false,
                coflowIndex, flowIndex, coflowOfFlow, flowsOfCoflow, resources, unfinishedOfCoflow, columns, null,
                aggregates);
    }

    @Override
    public String toString() {
        return "ClusterState(now=" + now + ", coflows=" + coflows.size() + ", flows=" + flows.size() + ")";
    }

    /**
     * Collects coflows and flows and validates them as a whole: unknown coflows, hosts or links,
     * duplicate ids and non-finite values are rejected with a message that names the offender.
     */
    public static final class Builder {
        private final Network network;
        private double now;
        private final List<Coflow> coflows = new ArrayList<>();
        private final ArrayList<Flow> flows = new ArrayList<>();
        private final double[] linkEstimate;

        private Builder(Network network) {
            if (network == null) {
                throw new IllegalArgumentException("network must not be null");
            }
            this.network = network;
            this.linkEstimate = new double[network.linkCount()];
            for (int l = 0; l < linkEstimate.length; l++) {
                linkEstimate[l] = network.capacity(network.link(l));
            }
        }

        public Builder now(double time) {
            if (!Double.isFinite(time)) {
                throw new IllegalArgumentException("now must be finite, got " + time);
            }
            this.now = time;
            return this;
        }

        public Builder coflow(Coflow c) {
            coflows.add(c);
            return this;
        }

        public Builder coflows(Iterable<Coflow> cs) {
            for (Coflow c : cs) {
                coflow(c);
            }
            return this;
        }

        /** Reserves room for {@code n} flows in total: a hint that spares regrowing large lists. */
        public Builder expectFlows(int n) {
            flows.ensureCapacity(n);
            return this;
        }

        public Builder flow(Flow f) {
            flows.add(f);
            return this;
        }

        public Builder flows(Iterable<Flow> fs) {
            for (Flow f : fs) {
                flow(f);
            }
            return this;
        }

        public Builder linkEstimate(int link, double bytesPerSecond) {
            if (link < 0 || link >= linkEstimate.length) {
                throw new IllegalArgumentException("link index " + link + " out of range [0, "
                        + linkEstimate.length + ")");
            }
            if (!Double.isFinite(bytesPerSecond) || bytesPerSecond < 0) {
                throw new IllegalArgumentException("estimate of " + network.resourceName(network.link(link))
                        + " must be finite and >= 0, got " + bytesPerSecond);
            }
            linkEstimate[link] = bytesPerSecond;
            return this;
        }

        public ClusterState build() {
            List<Coflow> sorted = new ArrayList<>(coflows);
            sorted.sort(Comparator.comparingDouble(Coflow::arrival).thenComparing(Coflow::id));
            Map<CoflowId, Integer> cIndex = new HashMap<>(sorted.size() * 2);
            for (int i = 0; i < sorted.size(); i++) {
                if (cIndex.put(sorted.get(i).id(), i) != null) {
                    throw new IllegalArgumentException("duplicate coflow id " + sorted.get(i).id());
                }
            }
            int hosts = network.hostCount();
            int[] coflowOf = new int[flows.size()];
            int[] perCoflow = new int[sorted.size()];
            int[][] res = new int[flows.size()][];
            // Flows without extra links share one resource array per (src, dst) pair: at trace scale a
            // state of 200 000 flows is built at every decision, and most flows repeat a pair.
            int[][] pairResources = PairTable.forState(hosts, flows.size());
            CoflowId lastId = null;
            int lastIndex = -1;
            for (int i = 0; i < flows.size(); i++) {
                Flow f = flows.get(i);
                int c;
                if (f.coflow().equals(lastId)) {
                    c = lastIndex; // drivers add a coflow's flows together: skip the hash lookup
                } else {
                    Integer found = cIndex.get(f.coflow());
                    if (found == null) {
                        throw new IllegalArgumentException(f.id() + " belongs to unknown coflow " + f.coflow());
                    }
                    c = found;
                    lastId = f.coflow();
                    lastIndex = c;
                }
                if (f.src() >= hosts || f.dst() >= hosts) {
                    throw new IllegalArgumentException(f.id() + " (" + f.coflow() + "): host " + f.src() + "->"
                            + f.dst() + " outside the network's " + hosts + " hosts");
                }
                int[] r;
                if (f.pathLength() == 0 && pairResources != null) {
                    int pair = f.src() * hosts + f.dst();
                    r = pairResources[pair];
                    if (r == null) {
                        r = new int[] {network.up(f.src()), network.down(f.dst())};
                        pairResources[pair] = r;
                    }
                } else {
                    r = new int[2 + f.pathLength()];
                    r[0] = network.up(f.src());
                    r[1] = network.down(f.dst());
                    for (int k = 0; k < f.pathLength(); k++) {
                        int l = f.pathLink(k);
                        if (l >= network.linkCount()) {
                            throw new IllegalArgumentException(f.id() + " (" + f.coflow() + "): link " + l
                                    + " outside the network's " + network.linkCount() + " links");
                        }
                        r[2 + k] = network.link(l);
                    }
                }
                res[i] = r;
                coflowOf[i] = c;
                perCoflow[c]++;
            }
            int[][] byCoflow = new int[sorted.size()][];
            for (int c = 0; c < byCoflow.length; c++) {
                byCoflow[c] = new int[perCoflow[c]];
                perCoflow[c] = 0;
            }
            for (int i = 0; i < flows.size(); i++) {
                byCoflow[coflowOf[i]][perCoflow[coflowOf[i]]++] = i;
            }
            List<Flow> fl = Collections.unmodifiableList(new ArrayList<>(flows));
            FlowIndex index = FlowIndex.of(fl);
            if (!index.ascending()) {
                // With ids ascending over the whole list, every coflow's members already are.
                for (int[] members : byCoflow) {
                    sortByFlowId(members, fl);
                }
            }
            FlowColumns columns = new FlowColumns(fl);
            int[][] unfinished = new int[byCoflow.length][];
            for (int c = 0; c < byCoflow.length; c++) {
                unfinished[c] = ColumnarStateBuilder.unfinished(byCoflow[c], columns.finished);
            }
            return new ClusterState(now, network, Collections.unmodifiableList(sorted), fl, linkEstimate.clone(),
                    true, cIndex, index, coflowOf, byCoflow, res, unfinished, columns);
        }

        private static void sortByFlowId(int[] members, List<Flow> fl) {
            // Drivers usually add a coflow's flows in id order already; checking is far cheaper than sorting.
            boolean sorted = true;
            for (int k = 1; k < members.length && sorted; k++) {
                sorted = fl.get(members[k - 1]).id().compareTo(fl.get(members[k]).id()) < 0;
            }
            if (sorted) {
                return;
            }
            Integer[] boxed = new Integer[members.length];
            for (int k = 0; k < members.length; k++) {
                boxed[k] = members[k];
            }
            Arrays.sort(boxed, (a, b) -> fl.get(a).id().compareTo(fl.get(b).id()));
            for (int k = 0; k < members.length; k++) {
                members[k] = boxed[k];
            }
        }
    }
}
