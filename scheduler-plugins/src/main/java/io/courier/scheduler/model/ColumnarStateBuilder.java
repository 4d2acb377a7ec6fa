package io.courier.scheduler.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Builds a {@link ClusterState} from primitive per-flow values instead of {@link Flow} objects, for
 * drivers that keep their flows in arrays (the simulator builds a state of up to 200 000 flows at every
 * decision). The state is the same as {@link ClusterState.Builder} would make from the equivalent flows;
 * flow objects are made only when a scheduler reads one.
 *
 * <p>Restrictions that keep building linear and hash-free: coflows are added in the state's own order,
 * (arrival, id) strictly ascending; each flow belongs to the coflow added last; flow ids ascend strictly
 * over the whole state; flows cross no extra links. Violations and invalid values are rejected with the
 * flow and coflow named. Not thread-safe.
 *
 * <p>A builder made with {@link #ColumnarStateBuilder(Network, int, int)} is one-shot: it builds one state,
 * which then owns the arrays. A {@linkplain #reusable reusable} builder builds a state after every
 * {@link #begin}, and the states share its arrays (they grow as needed and are never shrunk): a driver
 * that decides over 100 000+ flows a thousand times would otherwise allocate a dozen such arrays per
 * decision, most of them large enough to go straight to the old generation. The price is a contract:
 * the state built last, its views, its flow list and decisions made on it are valid only until the next
 * {@link #begin} — a driver uses a reusable builder only for schedulers that keep no state past the call
 * ({@code CoflowScheduler.retainsStates()} is false).
 */
public final class ColumnarStateBuilder {
    private final Network network;
    private double now;
    private final List<Coflow> coflows;
    private int[] coflowStart;
    private int flows;
    private long[] id;
    private int[] src;
    private int[] dst;
    private double[] size;
    private double[] sent;
    private boolean[] finished;
    private double[] measuredRate;
    private double[] lastDesiredRate;
    private boolean built;
    // Reusable builders only (null otherwise): buffers lent to the state built last.
    private final boolean reusable;
    private int[] coflowOfBuf;
    private int[][] resourceBuf;
    private double[] remainingBuf;
    private int[] unfinishedBuf;
    private Flow[] flowBuf;
    private Flow[] viewBuf;
    private int[][] pairTable;

    /** @param expectedFlows room reserved up front (the arrays grow when it is exceeded) */
    public ColumnarStateBuilder(Network network, int expectedCoflows, int expectedFlows) {
        this(network, expectedCoflows, expectedFlows, false);
    }

    private ColumnarStateBuilder(Network network, int expectedCoflows, int expectedFlows, boolean reusable) {
        if (network == null) {
            throw new IllegalArgumentException("network must not be null");
        }
        this.network = network;
        this.reusable = reusable;
        this.coflows = new ArrayList<>(Math.max(0, expectedCoflows));
        this.coflowStart = new int[Math.max(1, expectedCoflows + 1)];
        int cap = Math.max(0, expectedFlows);
        id = new long[cap];
        src = new int[cap];
        dst = new int[cap];
        size = new double[cap];
        sent = new double[cap];
        finished = new boolean[cap];
        measuredRate = new double[cap];
        lastDesiredRate = new double[cap];
    }

    /**
     * A builder for a sequence of states over {@code network} that reuse its arrays; call {@link #begin}
     * before each state. See the class comment for what a driver must guarantee.
     */
    public static ColumnarStateBuilder reusable(Network network) {
        return new ColumnarStateBuilder(network, 16, 1024, true);
    }

    /**
     * Starts the next state of a reusable builder: forgets the coflows and flows added so far. From here on
     * the state this builder built last (and everything read from it lazily) must not be used.
     */
    public ColumnarStateBuilder begin() {
        if (!reusable) {
            throw new IllegalStateException("a one-shot builder cannot begin another state");
        }
        coflows.clear();
        flows = 0;
        now = 0.0;
        built = false;
        return this;
    }

    public ColumnarStateBuilder now(double time) {
        if (!Double.isFinite(time)) {
            throw new IllegalArgumentException("now must be finite, got " + time);
        }
        this.now = time;
        return this;
    }

    /** The next coflow; it must come after the previous one in (arrival, id) order. */
    public ColumnarStateBuilder coflow(Coflow c) {
        checkOpen();
        if (!coflows.isEmpty()) {
            Coflow prev = coflows.get(coflows.size() - 1);
            int cmp = Double.compare(prev.arrival(), c.arrival());
            if (cmp > 0 || cmp == 0 && prev.id().compareTo(c.id()) >= 0) {
                throw new IllegalArgumentException("coflow " + c.id() + " (arrival " + c.arrival() + ") added after "
                        + prev.id() + " (arrival " + prev.arrival() + "): coflows must come in (arrival, id) order");
            }
        }
        if (coflows.size() + 1 >= coflowStart.length) {
            coflowStart = Arrays.copyOf(coflowStart, 2 * coflowStart.length);
        }
        coflows.add(c);
        coflowStart[coflows.size() - 1] = flows;
        return this;
    }

    /**
     * A flow of the coflow added last.
     *
     * @param bytes           total size, or NaN when unknown
     * @param measured        measured rate, or NaN when not measured
     * @param lastDesired     the previous decision's rate, or NaN when never scheduled
     */
    public ColumnarStateBuilder flow(long flowId, int from, int to, double bytes, double sentBytes, boolean done,
            double measured, double lastDesired) {
        checkOpen();
        if (coflows.isEmpty()) {
            throw new IllegalArgumentException("flow-" + flowId + " added before any coflow");
        }
        if (flows > 0 && flowId <= id[flows - 1]) {
            throw new IllegalArgumentException("flow-" + flowId + " (" + lastCoflow() + ") added after flow-"
                    + id[flows - 1] + ": flow ids must ascend");
        }
        int hosts = network.hostCount();
        if (from < 0 || to < 0 || from >= hosts || to >= hosts) {
            throw new IllegalArgumentException("flow-" + flowId + " (" + lastCoflow() + "): host " + from + "->" + to
                    + " outside the network's " + hosts + " hosts");
        }
        if (!(sentBytes >= 0 && sentBytes < Double.POSITIVE_INFINITY && valid(bytes) && valid(measured)
                && valid(lastDesired))) {
            check(flowId, "size", bytes, true);
            check(flowId, "sent", sentBytes, false);
            check(flowId, "measured rate", measured, true);
            check(flowId, "last desired rate", lastDesired, true);
        }
        if (flows == id.length) {
            resize(Math.max(16, 2 * id.length));
        }
        id[flows] = flowId;
        src[flows] = from;
        dst[flows] = to;
        size[flows] = bytes;
        sent[flows] = sentBytes;
        finished[flows] = done;
        measuredRate[flows] = measured;
        lastDesiredRate[flows] = lastDesired;
        flows++;
        return this;
    }

    /**
     * {@code count} flows of the coflow added last whose values sit at {@code from .. from + count - 1} of a
     * driver's arrays, with ids {@code firstId, firstId + 1, ...}: the same checks and the same state as
     * {@link #flow} called for each in turn, but the columns are copied in bulk — a driver that keeps its
     * flows in arrays, a coflow's flows side by side, copies whole coflows instead of making a call per flow.
     * {@code measuredRates} and {@code lastDesiredRates} may be the same array.
     */
    public ColumnarStateBuilder flowRange(long firstId, int from, int count, int[] srcs, int[] dsts, double[] sizes,
            double[] sents, boolean[] dones, double[] measuredRates, double[] lastDesiredRates) {
        checkOpen();
        if (count <= 0) {
            return this;
        }
        if (coflows.isEmpty() || (flows > 0 && firstId <= id[flows - 1]) || !rangeValid(from, count, srcs, dsts,
                sizes, sents, measuredRates, lastDesiredRates)) {
            // The per-flow path names the first offender exactly as it would have been named one by one.
            for (int k = 0; k < count; k++) {
                int i = from + k;
                flow(firstId + k, srcs[i], dsts[i], sizes[i], sents[i], dones[i], measuredRates[i],
                        lastDesiredRates[i]);
            }
            return this;
        }
        if (flows + count > id.length) {
            resize(Math.max(flows + count, Math.max(16, 2 * id.length)));
        }
        System.arraycopy(srcs, from, src, flows, count);
        System.arraycopy(dsts, from, dst, flows, count);
        System.arraycopy(sizes, from, size, flows, count);
        System.arraycopy(sents, from, sent, flows, count);
        System.arraycopy(dones, from, finished, flows, count);
        System.arraycopy(measuredRates, from, measuredRate, flows, count);
        System.arraycopy(lastDesiredRates, from, lastDesiredRate, flows, count);
        for (int k = 0; k < count; k++) {
            id[flows + k] = firstId + k;
        }
        flows += count;
        return this;
    }

    /** Whether every flow of the range passes {@link #flow}'s checks on hosts and values. */
    private boolean rangeValid(int from, int count, int[] srcs, int[] dsts, double[] sizes, double[] sents,
            double[] measuredRates, double[] lastDesiredRates) {
        int hosts = network.hostCount();
        boolean ok = true;
        for (int i = from; i < from + count; i++) {
            int a = srcs[i];
            int b = dsts[i];
            double s = sents[i];
            ok &= a >= 0 & b >= 0 & a < hosts & b < hosts & s >= 0 & s < Double.POSITIVE_INFINITY
                    & valid(sizes[i]) & valid(measuredRates[i]) & valid(lastDesiredRates[i]);
        }
        return ok;
    }

    public ClusterState build() {
        checkOpen();
        built = true;
        int nc = coflows.size();
        coflowStart[nc] = flows;
        List<Coflow> cs = Collections.unmodifiableList(new ArrayList<>(coflows));
        Map<CoflowId, Integer> cIndex = new HashMap<>(nc * 2);
        for (int c = 0; c < nc; c++) {
            cIndex.put(cs.get(c).id(), c); // ids are distinct: (arrival, id) ascends strictly
        }
        int hosts = network.hostCount();
        int[][] pairResources;
        int[] coflowOf;
        int[][] res;
        if (reusable) {
            lend();
            if (pairTable == null) {
                pairTable = PairTable.forState(hosts, Integer.MAX_VALUE / 8); // null when too large to keep
            }
            pairResources = pairTable;
            coflowOf = coflowOfBuf;
            res = resourceBuf;
        } else {
            pairResources = PairTable.forState(hosts, flows);
            coflowOf = new int[flows];
            res = new int[flows][];
        }
        int[][] byCoflow = new int[nc][];
        for (int c = 0; c < nc; c++) {
            int from = coflowStart[c];
            int to = coflowStart[c + 1];
            int[] members = new int[to - from];
            for (int i = from; i < to; i++) {
                coflowOf[i] = c;
                members[i - from] = i;
                res[i] = resources(pairResources, hosts, src[i], dst[i]);
            }
            byCoflow[c] = members;
        }
        if (!reusable) {
            // One-shot: the columns move into the state (trimmed only when the room reserved was not all used).
            trim();
        }
        boolean[] fin = finished;
        FlowColumns columns = reusable
                ? new FlowColumns(flows, fin, src, dst, size, sent, remainingBuf, unfinishedBuf)
                : new FlowColumns(flows, fin, src, dst, size, sent, null, null);
        int[][] unfinished = new int[nc][];
        for (int c = 0; c < nc; c++) {
            unfinished[c] = unfinished(byCoflow[c], fin);
        }
        final long[] ids = id;
        final double[] sz = size;
        final double[] mr = measuredRate;
        final double[] ld = lastDesiredRate;
        final int[] cof = coflowOf;
        IntFunction<Flow> maker = i -> {
            Flow.Builder b = Flow.builder(FlowId.of(ids[i]), cs.get(cof[i]).id(), columns.src[i], columns.dst[i])
                    .sent(columns.sent[i]).finished(columns.finished[i]);
            if (!Double.isNaN(sz[i])) {
                b.size(sz[i]);
            }
            if (!Double.isNaN(mr[i])) {
                b.measuredRate(mr[i]);
            }
            if (!Double.isNaN(ld[i])) {
                b.lastDesiredRate(ld[i]);
            }
            return b.build();
        };
        List<Flow> lazy = reusable ? new LazyFlowList(flowBuf, flows, maker) : new LazyFlowList(flows, maker);
        double[] linkEstimate = new double[network.linkCount()];
        for (int l = 0; l < linkEstimate.length; l++) {
            linkEstimate[l] = network.capacity(network.link(l));
        }
        return new ClusterState(now, network, cs, lazy, linkEstimate, true, cIndex, FlowIndex.ofAscending(ids, flows),
                coflowOf, byCoflow, res, unfinished, columns, reusable ? viewBuf : null);
    }

    /** Makes the reusable builder's own buffers at least as long as its columns. */
    private void lend() {
        int cap = id.length;
        if (coflowOfBuf == null || coflowOfBuf.length < cap) {
            coflowOfBuf = new int[cap];
            resourceBuf = new int[cap][];
            remainingBuf = new double[cap];
            unfinishedBuf = new int[cap];
            flowBuf = new Flow[cap];
            viewBuf = new Flow[cap];
        }
    }

    private int[] resources(int[][] shared, int hosts, int from, int to) {
        if (shared == null) {
            return new int[] {network.up(from), network.down(to)};
        }
        int pair = from * hosts + to;
        int[] r = shared[pair];
        if (r == null) {
            r = new int[] {network.up(from), network.down(to)};
            shared[pair] = r;
        }
        return r;
    }

    private static int[] unfinished(int[] members, boolean[] fin) {
        int n = 0;
        for (int f : members) {
            if (!fin[f]) {
                n++;
            }
        }
        if (n == members.length) {
            return members;
        }
        int[] out = new int[n];
        int k = 0;
        for (int f : members) {
            if (!fin[f]) {
                out[k++] = f;
            }
        }
        return out;
    }

    /** NaN (unknown) or a finite number >= 0. */
    private static boolean valid(double v) {
        return v != v || v >= 0 && v < Double.POSITIVE_INFINITY;
    }

    private void check(long flowId, String what, double v, boolean nanAllowed) {
        if (Double.isNaN(v) ? !nanAllowed : !(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("flow-" + flowId + " (" + lastCoflow() + "): " + what
                    + " must be a finite number >= 0, got " + v);
        }
    }

    private CoflowId lastCoflow() {
        return coflows.get(coflows.size() - 1).id();
    }

    private void checkOpen() {
        if (built) {
            throw new IllegalStateException("this builder has already built its state");
        }
    }

    private void trim() {
        if (flows < id.length) {
            resize(flows);
        }
    }

    private void resize(int cap) {
        id = Arrays.copyOf(id, cap);
        src = Arrays.copyOf(src, cap);
        dst = Arrays.copyOf(dst, cap);
        size = Arrays.copyOf(size, cap);
        sent = Arrays.copyOf(sent, cap);
        finished = Arrays.copyOf(finished, cap);
        measuredRate = Arrays.copyOf(measuredRate, cap);
        lastDesiredRate = Arrays.copyOf(lastDesiredRate, cap);
    }
}
