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
    /**
     * What a revision of the state built last reuses: everything that depends only on which flows and coflows
     * the state holds, not on their values.
     */
    private static final class Revisable {
        final List<Coflow> coflows;
        final Map<CoflowId, Integer> coflowIndex;
        final int[][] byCoflow;
        final int[][] unfinished;
        final FlowIndex flowIndex;
        final FlowColumns columns;
        final CoflowAggregates aggregates;
        /** Where each coflow's flows start, plus the flow count at the end (coflows + 1 entries). */
        final int[] starts;

        Revisable(List<Coflow> coflows, Map<CoflowId, Integer> coflowIndex, int[][] byCoflow, int[][] unfinished,
                FlowIndex flowIndex, FlowColumns columns, CoflowAggregates aggregates, int[] starts) {
            this.starts = starts;
            this.coflows = coflows;
            this.coflowIndex = coflowIndex;
            this.byCoflow = byCoflow;
            this.unfinished = unfinished;
            this.flowIndex = flowIndex;
            this.columns = columns;
            this.aggregates = aggregates;
        }
    }

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
    private Flow[] flowBuf;
    private Flow[] viewBuf;
    private int[][] pairTable;
    // Reusable builders only: the structure of the state built last, which a revision keeps (see revise).
    private Revisable last;
    /**
     * During a whole build that follows another: the state built before, whose per-coflow sums a coflow added again
     * with exactly the same flows and values keeps ({@link #carry}); null otherwise.
     */
    private Revisable carrySource;
    /** For each coflow of the state being built: the index of the same coflow in {@link #carrySource}, or -1. */
    private int[] carryFrom = new int[16];
    /** For each coflow with a {@link #carryFrom}: whether its sent bytes are the same too (then its loads carry). */
    private boolean[] carryLoads = new boolean[16];
    /**
     * For each coflow with a {@link #carryFrom} but other sent bytes: the host ports of the flows whose sent bytes
     * differ (its loads carry as {@link CoflowAggregates.StaleLoads}); null otherwise.
     */
    private int[][] carryStalePorts = new int[16][];
    /** Scratch for collecting distinct host ports ({@link #markPorts}), 2 · hosts long once used. */
    private int[] portBuf;
    private boolean[] portMarked;
    private boolean revising;
    /** During a revision: how many of the last state's coflows it keeps (those after them were dropped). */
    private int kept;
    private int[] revised = new int[16];
    private int revisedCount;
    /** Coflows (by index) of which a revised flow changed its finished flag; their unfinished lists are redone. */
    private boolean[] coflowRevised = new boolean[0];
    /** Coflows (by index) of which a revised flow changed its sent bytes or finished flag (their loads are redone). */
    private boolean[] coflowValuesRevised = new boolean[0];
    /** Whether a revised flow went from finished back to unfinished (then the unfinished lists are rebuilt whole). */
    private boolean unfinishing;
    /** The revised flows that went from unfinished to finished, the first {@link #finishingCount} (in call order). */
    private int[] finishing = new int[16];
    private int finishingCount;

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
        revising = false;
        carrySource = last;
        last = null;
        return this;
    }

    /**
     * Reopens the state this reusable builder built last for new values of some of its flows
     * ({@link #reviseFlow}); {@link #build} then makes a state with the same coflows and flows at the same
     * indices, reusing everything that depends only on which flows there are (coflow and flow indexes, resource
     * lists, members) and redoing only what the revised values change. Coflows may then be appended after the
     * state's last one ({@link #coflow}, then their flows with {@link #flow} or {@link #flowRange}, after the
     * revised values): the flows already there keep their indices. A driver whose flows did not change since the
     * last decision but for their values and for coflows that arrived (no departure) builds its next state in time
     * proportional to the flows that changed or came, not to the state. The state built last must not be used from
     * here on. If
     * {@link #reviseFlow} rejects a value, the revision ends there: {@link #build} then builds the whole state from
     * the values given so far, and the next revision needs a state built after that.
     */
    public ColumnarStateBuilder revise(double time) {
        return revise(time, last == null ? 0 : last.coflows.size()); // which rejects a builder with no state to revise
    }

    /**
     * {@link #revise(double)} keeping only the first {@code keepCoflows} coflows of the state built last: the others
     * and their flows are dropped, {@link #reviseFlow} may revise only the flows kept, and the driver appends what
     * follows them (with the same checks and outcome as a whole build, per-coflow sums carried from the last state
     * where a coflow's flows are the same). A coflow left: the driver keeps the coflows before it, which cost only
     * their revised flows, instead of building the whole state again — at trace scale those are usually the long,
     * wide coflows that hold most of the flows.
     */
    public ColumnarStateBuilder revise(double time, int keepCoflows) {
        if (!reusable || last == null) {
            throw new IllegalStateException("only a reusable builder that has built a state can revise it");
        }
        int had = last.coflows.size();
        if (keepCoflows < 0 || keepCoflows > had) {
            throw new IllegalArgumentException("a revision keeps 0 to " + had + " coflows, not " + keepCoflows);
        }
        now(time);
        built = false;
        revising = true;
        revisedCount = 0;
        unfinishing = false;
        finishingCount = 0;
        kept = keepCoflows;
        if (keepCoflows < had) {
            coflows.subList(keepCoflows, coflows.size()).clear();
            flows = last.starts[keepCoflows];
            carrySource = last; // the coflows appended again keep their sums where their flows are the same
        }
        if (coflowRevised.length < coflows.size()) {
            coflowRevised = new boolean[coflows.size()];
            coflowValuesRevised = new boolean[coflows.size()];
        }
        return this;
    }

    /**
     * New values for the flow at {@code index} of the state being revised, checked as {@link #flow} checks them.
     * A flow may be revised more than once; the last values hold.
     */
    public ColumnarStateBuilder reviseFlow(int index, double sentBytes, boolean done, double measured,
            double lastDesired) {
        int own = checkRevising();
        if (revisedCount == revised.length) {
            revised = Arrays.copyOf(revised, 2 * revisedCount);
        }
        reviseOne(index, own, sentBytes, done, measured, lastDesired);
        return this;
    }

    /**
     * {@link #reviseFlow} for many flows: for each {@code k < count}, the flow at index {@code i = positions[k]}
     * takes the driver's values at {@code j = source[i]}: {@code sent[j]}, {@code finished[j]}, and {@code rate[j]}
     * as both its measured and its last desired rate. The same checks and outcome as {@code count} calls of
     * {@link #reviseFlow}, without their per-call overhead: a simulator revises every flow that sent since the last
     * decision, tens of thousands at trace scale.
     */
    public ColumnarStateBuilder reviseFlows(int[] positions, int count, int[] source, double[] sent,
            boolean[] finished, double[] rate) {
        int own = checkRevising();
        if (revised.length < revisedCount + count) {
            revised = Arrays.copyOf(revised, Math.max(2 * revised.length, revisedCount + count));
        }
        for (int k = 0; k < count; k++) {
            int i = positions[k];
            int j = source[i];
            double r = rate[j];
            reviseOne(i, own, sent[j], finished[j], r, r);
        }
        return this;
    }

    /** The number of flows of the state being revised (those a revision may change); throws outside a revision. */
    private int checkRevising() {
        if (!revising) {
            throw new IllegalStateException("reviseFlow outside a revision (call revise first)");
        }
        return last.starts[kept];
    }

    /** One flow's new values; {@link #revised} has room for one more entry. */
    private void reviseOne(int index, int own, double sentBytes, boolean done, double measured, double lastDesired) {
        if (index < 0 || index >= own) {
            throw new IllegalArgumentException("flow index " + index + " outside the state's " + own + " flows");
        }
        if (!(sentBytes >= 0 && sentBytes < Double.POSITIVE_INFINITY && valid(measured) && valid(lastDesired))) {
            // The flows revised so far have their new values but the kept structure does not know them yet: from
            // here on the builder can only build whole (build() now builds the state from its columns).
            revising = false;
            last = null;
            carrySource = null; // the kept coflows' carry notes are those of an older build
            Arrays.fill(coflowRevised, false);
            Arrays.fill(coflowValuesRevised, false);
            CoflowId c = coflows.get(coflowOfBuf[index]).id();
            check(id[index], c, "sent", sentBytes, false);
            check(id[index], c, "measured rate", measured, true);
            check(id[index], c, "last desired rate", lastDesired, true);
        }
        boolean was = finished[index];
        if (was != done) {
            coflowRevised[coflowOfBuf[index]] = true;
            unfinishing |= !done;
            if (done) {
                if (finishingCount == finishing.length) {
                    finishing = Arrays.copyOf(finishing, 2 * finishingCount);
                }
                finishing[finishingCount++] = index;
            }
        }
        if (was != done || Double.compare(sent[index], sentBytes) != 0) {
            coflowValuesRevised[coflowOfBuf[index]] = true;
        }
        sent[index] = sentBytes;
        finished[index] = done;
        measuredRate[index] = measured;
        lastDesiredRate[index] = lastDesired;
        revised[revisedCount++] = index;
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
        checkAppendable();
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
        if (carryFrom.length < coflows.size()) {
            carryFrom = Arrays.copyOf(carryFrom, 2 * coflows.size());
            carryLoads = Arrays.copyOf(carryLoads, carryFrom.length);
            carryStalePorts = Arrays.copyOf(carryStalePorts, carryFrom.length);
        }
        carryFrom[coflows.size() - 1] = -1;
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
        checkFlowAppendable();
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
            check(flowId, lastCoflow(), "size", bytes, true);
            check(flowId, lastCoflow(), "sent", sentBytes, false);
            check(flowId, lastCoflow(), "measured rate", measured, true);
            check(flowId, lastCoflow(), "last desired rate", lastDesired, true);
        }
        if (flows == id.length) {
            resize(Math.max(16, 2 * id.length));
        }
        carryFrom[coflows.size() - 1] = -1; // added flow by flow: its sums are computed afresh
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
        checkFlowAppendable();
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
        carry(firstId, from, count, srcs, dsts, sizes, sents, dones);
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

    /**
     * Notes whether the coflow added last, whose flows are about to be copied to {@link #flows} onwards, is a
     * coflow of the state built before with the same flows (ids, endpoints, sizes, finished flags): then its host
     * groups stay valid, shifted to its new place, and so do its loads if the sent bytes are the same as well. Its old
     * values are still in the columns when it has not moved right: everything copied so far lies before its new
     * place, hence before its old one (and flow ids are unique, so an overwritten old place could not pass the id
     * check anyway). A coflow that moved right, or one added flow by flow, computes its sums afresh. Costs one
     * comparison pass over the coflow's flows, against recomputing its sums and host groups at their first use.
     */
    private void carry(long firstId, int from, int count, int[] srcs, int[] dsts, double[] sizes, double[] sents,
            boolean[] dones) {
        int c = coflows.size() - 1;
        boolean wholeCoflow = flows == coflowStart[c]; // its first range: nothing of it added before
        carryFrom[c] = -1;
        Revisable prev = carrySource;
        if (prev == null || !wholeCoflow) {
            return;
        }
        Integer old = prev.coflowIndex.get(coflows.get(c).id());
        if (old == null) {
            return;
        }
        int oldStart = prev.starts[old];
        if (prev.starts[old + 1] - oldStart != count || flows > oldStart || id[oldStart] != firstId
                || id[oldStart + count - 1] != firstId + count - 1) {
            return;
        }
        int stalePorts = 0;
        for (int k = 0; k < count; k++) {
            int i = oldStart + k;
            int j = from + k;
            if (src[i] != srcs[j] || dst[i] != dsts[j] || finished[i] != dones[j]
                    || Double.compare(size[i], sizes[j]) != 0) {
                clearPortMarks(stalePorts);
                return;
            }
            if (Double.compare(sent[i], sents[j]) != 0) {
                stalePorts = markPorts(i, stalePorts);
            }
        }
        carryFrom[c] = old;
        carryLoads[c] = stalePorts == 0;
        carryStalePorts[c] = stalePorts == 0 ? null : Arrays.copyOf(portBuf, stalePorts);
        clearPortMarks(stalePorts);
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
        if (revising) {
            if (flows <= coflowOfBuf.length && last.columns.src == src) {
                return buildRevision();
            }
            // The coflows appended outgrew the buffers the state lends: build the whole state from the columns, which
            // hold every value given (the revised ones included). The kept coflows' carry notes are an older build's.
            revising = false;
            last = null;
            carrySource = null;
            Arrays.fill(coflowRevised, false);
            Arrays.fill(coflowValuesRevised, false);
        }
        int nc = coflows.size();
        coflowStart[nc] = flows;
        List<Coflow> cs = Collections.unmodifiableList(new ArrayList<>(coflows));
        Map<CoflowId, Integer> cIndex = indexOf(cs, nc, nc);
        int hosts = network.hostCount();
        int[][] pairResources;
        int[] coflowOf;
        int[][] res;
        // Whether the buffers the last state lent (coflow of each flow, resources) still hold its values.
        boolean lentKept = false;
        if (reusable) {
            lentKept = lend();
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
        int[][] unfinished = new int[nc][];
        for (int c = 0; c < nc; c++) {
            if (lentKept && keepsPlace(c)) {
                // The same flows at the same place as in the last state, under the same index (no coflow before it
                // left): what place() and unfinished() would write is there already.
                byCoflow[c] = carrySource.byCoflow[c];
                unfinished[c] = carrySource.unfinished[c];
            } else {
                byCoflow[c] = place(c, coflowOf, res, pairResources);
            }
        }
        if (!reusable) {
            // One-shot: the columns move into the state (trimmed only when the room reserved was not all used).
            trim();
        }
        boolean[] fin = finished;
        FlowColumns columns = new FlowColumns(flows, fin, src, dst, size, sent, reusable ? remainingBuf : null);
        for (int c = 0; c < nc; c++) {
            if (unfinished[c] == null) {
                unfinished[c] = unfinished(byCoflow[c], fin);
            }
        }
        FlowIndex flowIndex = FlowIndex.ofAscending(id, flows);
        CoflowAggregates aggregates = new CoflowAggregates(nc);
        carrySums(aggregates, 0, nc);
        if (reusable) {
            last = new Revisable(cs, cIndex, byCoflow, unfinished, flowIndex, columns, aggregates,
                    Arrays.copyOf(coflowStart, nc + 1));
        }
        return state(cs, cIndex, flowIndex, coflowOf, byCoflow, res, unfinished, columns, aggregates, false);
    }

    /**
     * Takes into {@code aggregates} the sums of {@link #carrySource} (if any) for the coflows {@code from .. to - 1}
     * that {@link #carry} found the same, then forgets the carry source.
     */
    private void carrySums(CoflowAggregates aggregates, int from, int to) {
        if (carrySource == null) {
            return;
        }
        for (int c = from; c < to; c++) {
            int old = carryFrom[c];
            if (old >= 0) {
                aggregates.carry(c, carrySource.aggregates, old, coflowStart[c] - carrySource.starts[old],
                        carryLoads[c]);
                if (carryStalePorts[c] != null) {
                    aggregates.staleLoads(c, carrySource.aggregates, old, carryStalePorts[c],
                            carryStalePorts[c].length);
                }
            }
        }
        carrySource = null;
    }

    /** The index of the first {@code count} coflows of {@code cs}, with room for {@code capacity}. */
    private static Map<CoflowId, Integer> indexOf(List<Coflow> cs, int count, int capacity) {
        Map<CoflowId, Integer> index = new HashMap<>(capacity * 2);
        for (int c = 0; c < count; c++) {
            index.put(cs.get(c).id(), c); // ids are distinct: (arrival, id) ascends strictly
        }
        return index;
    }

    /** The state of a revision: the last state's structure with the revised flows' values. */
    private ClusterState buildRevision() {
        revising = false;
        Revisable prev = last;
        boolean anyFinishedChanged = false;
        double[] remaining = prev.columns.remaining;
        for (int k = 0; k < revisedCount; k++) {
            int i = revised[k];
            remaining[i] = FlowColumns.remaining(size[i], sent[i]);
        }
        int own = kept;
        int nc = coflows.size();
        CoflowAggregates aggregates = prev.aggregates.revised(coflowValuesRevised, coflowRevised, own, nc);
        markStaleLoads(prev.aggregates, aggregates);
        Arrays.fill(coflowValuesRevised, 0, own, false);
        int[][] unfinished = prev.unfinished;
        if (unfinishing) {
            for (int c = 0; c < own; c++) {
                if (coflowRevised[c]) {
                    if (!anyFinishedChanged) {
                        unfinished = unfinished.clone(); // the last state's lists stay as they were
                        anyFinishedChanged = true;
                    }
                    unfinished[c] = unfinished(prev.byCoflow[c], finished);
                    coflowRevised[c] = false;
                }
            }
        } else if (finishingCount > 0) {
            // Flows only finishing (the usual revision): each list and host group loses its coflow's finished flows,
            // copied around them, instead of being filtered or regrouped over all the coflow's flows.
            unfinished = unfinished.clone();
            Arrays.sort(finishing, 0, finishingCount); // a coflow's flows are side by side
            for (int j = 0; j < finishingCount; ) {
                int c = coflowOfBuf[finishing[j]];
                int e = coflowRunEnd(finishing, j, finishingCount);
                unfinished[c] = without(prev.unfinished[c], finishing, j, e);
                aggregates.groupsWithout(c, prev.aggregates, finishing, j, e, src, dst);
                coflowRevised[c] = false;
                j = e;
            }
        }
        for (int k = 0; k < revisedCount; k++) {
            flowBuf[revised[k]] = null; // the other flows' objects are still right: their values did not change
        }
        if (nc == own && own == prev.coflows.size()) {
            FlowColumns columns = prev.columns; // the same arrays, revised in place
            last = new Revisable(prev.coflows, prev.coflowIndex, prev.byCoflow, unfinished, prev.flowIndex, columns,
                    aggregates, prev.starts);
            return state(prev.coflows, prev.coflowIndex, prev.flowIndex, coflowOfBuf, prev.byCoflow, resourceBuf,
                    unfinished, columns, aggregates, true);
        }
        // Coflows appended after the ones kept (arrivals, and after a departure the coflows that followed the first
        // one that left): the kept structure grows by their flows only.
        int ownFlows = prev.starts[own];
        coflowStart[nc] = flows;
        List<Coflow> cs = Collections.unmodifiableList(new ArrayList<>(coflows));
        Map<CoflowId, Integer> cIndex = own == prev.coflows.size() ? new HashMap<>(prev.coflowIndex)
                : indexOf(cs, own, nc);
        int[][] byCoflow = Arrays.copyOf(prev.byCoflow, nc);
        unfinished = Arrays.copyOf(unfinished, nc);
        for (int c = own; c < nc; c++) {
            cIndex.put(cs.get(c).id(), c);
            byCoflow[c] = place(c, coflowOfBuf, resourceBuf, pairTable);
            for (int i : byCoflow[c]) {
                remaining[i] = FlowColumns.remaining(size[i], sent[i]);
            }
            unfinished[c] = unfinished(byCoflow[c], finished);
        }
        carrySums(aggregates, own, nc);
        Arrays.fill(flowBuf, ownFlows, flows, null); // objects of an older, longer state may sit there
        FlowColumns columns = FlowColumns.sharing(flows, finished, src, dst, sent, remaining);
        FlowIndex flowIndex = FlowIndex.ofAscending(id, flows);
        last = new Revisable(cs, cIndex, byCoflow, unfinished, flowIndex, columns, aggregates,
                Arrays.copyOf(coflowStart, nc + 1));
        return state(cs, cIndex, flowIndex, coflowOfBuf, byCoflow, resourceBuf, unfinished, columns, aggregates, true);
    }

    /**
     * @param keepMade whether the flow objects made for the last state stay (a revision, which cleared those of the
     *                 revised flows) rather than being cleared
     */
    private ClusterState state(List<Coflow> cs, Map<CoflowId, Integer> cIndex, FlowIndex flowIndex, int[] coflowOf,
            int[][] byCoflow, int[][] res, int[][] unfinished, FlowColumns columns, CoflowAggregates aggregates,
            boolean keepMade) {
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
        List<Flow> lazy = !reusable ? new LazyFlowList(flows, maker)
                : keepMade ? LazyFlowList.keeping(flowBuf, flows, maker) : new LazyFlowList(flowBuf, flows, maker);
        double[] linkEstimate = new double[network.linkCount()];
        for (int l = 0; l < linkEstimate.length; l++) {
            linkEstimate[l] = network.capacity(network.link(l));
        }
        return new ClusterState(now, network, cs, lazy, linkEstimate, true, cIndex, flowIndex,
                coflowOf, byCoflow, res, unfinished, columns, reusable ? viewBuf : null, aggregates);
    }

    /**
     * Whether coflow {@code c} of the state being built is the last state's coflow {@code c} with the same flows
     * (ids, endpoints, sizes, finished flags: {@link #carry}) starting at the same index. After a departure this holds
     * for every coflow before the one that left — usually the long, wide ones that hold most flows.
     */
    private boolean keepsPlace(int c) {
        return carrySource != null && carryFrom[c] == c && carrySource.starts[c] == coflowStart[c];
    }

    /**
     * Makes the reusable builder's own buffers at least as long as its columns; returns whether it kept the ones it
     * had (then they still hold what the last state wrote), false when it made new ones.
     */
    private boolean lend() {
        int cap = id.length;
        if (coflowOfBuf != null && coflowOfBuf.length >= cap) {
            return true;
        }
        coflowOfBuf = new int[cap];
        resourceBuf = new int[cap][];
        remainingBuf = new double[cap];
        flowBuf = new Flow[cap];
        viewBuf = new Flow[cap];
        return false;
    }

    /**
     * Notes coflow {@code c}'s flows (its range of the columns) in {@code coflowOf} and their resources in {@code res}
     * ({@code pairs} shared per host pair, or null); returns the coflow's members (its flow indices).
     */
    private int[] place(int c, int[] coflowOf, int[][] res, int[][] pairs) {
        int hosts = network.hostCount();
        int from = coflowStart[c];
        int[] members = new int[coflowStart[c + 1] - from];
        for (int i = from; i < coflowStart[c + 1]; i++) {
            coflowOf[i] = c;
            members[i - from] = i;
            res[i] = resources(pairs, hosts, src[i], dst[i]);
        }
        return members;
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

    /**
     * For each coflow whose loads a revision drops ({@link #coflowValuesRevised}): the host ports of its revised
     * flows, where the loads it had before are out of date (a revised flow whose values did not change only adds a
     * port summed again for nothing).
     */
    private void markStaleLoads(CoflowAggregates before, CoflowAggregates after) {
        boolean any = false;
        for (int c = 0; c < coflowValuesRevised.length && !any; c++) {
            any = coflowValuesRevised[c] && before.knowsLoads(c);
        }
        if (!any) {
            return; // no loads to refresh: this driver's scheduler has not asked for them (or not since they changed)
        }
        int[] order = Arrays.copyOf(revised, revisedCount);
        Arrays.sort(order); // a coflow's flows are side by side
        for (int j = 0; j < order.length; ) {
            int c = coflowOfBuf[order[j]];
            int e = coflowRunEnd(order, j, order.length);
            if (coflowValuesRevised[c] && before.knowsLoads(c)) {
                int n = 0;
                for (int k = j; k < e; k++) {
                    n = markPorts(order[k], n);
                }
                after.staleLoads(c, before, c, portBuf, n);
                clearPortMarks(n);
            }
            j = e;
        }
    }

    /** Adds the up and down port of flow {@code i} to {@link #portBuf}{@code [0..n)} unless marked; returns the new n. */
    private int markPorts(int i, int n) {
        int hosts = network.hostCount();
        if (portBuf == null) {
            portBuf = new int[2 * hosts];
            portMarked = new boolean[2 * hosts];
        }
        int up = network.up(src[i]);
        int down = network.down(dst[i]);
        if (!portMarked[up]) {
            portMarked[up] = true;
            portBuf[n++] = up;
        }
        if (!portMarked[down]) {
            portMarked[down] = true;
            portBuf[n++] = down;
        }
        return n;
    }

    private void clearPortMarks(int n) {
        for (int k = 0; k < n; k++) {
            portMarked[portBuf[k]] = false;
        }
    }

    /**
     * Where the run of flows of one coflow that starts at {@code positions[from]} ends ({@code positions} ascending up
     * to {@code count}; a coflow's flows are side by side).
     */
    private int coflowRunEnd(int[] positions, int from, int count) {
        int c = coflowOfBuf[positions[from]];
        int e = from + 1;
        while (e < count && coflowOfBuf[positions[e]] == c) {
            e++;
        }
        return e;
    }

    /** {@code list} (ascending) without {@code drop[from..to)} (ascending, every one of them in {@code list}). */
    private static int[] without(int[] list, int[] drop, int from, int to) {
        int[] at = new int[to - from];
        int searchFrom = 0;
        for (int j = from; j < to; j++) {
            at[j - from] = Arrays.binarySearch(list, searchFrom, list.length, drop[j]);
            if (at[j - from] < 0) {
                throw new IllegalStateException("flow index " + drop[j] + " finished but was not unfinished");
            }
            searchFrom = at[j - from] + 1;
        }
        return PortGroups.withoutPositions(list, at);
    }

    /**
     * The members not finished, in their order; {@code members} itself when none has finished (callers never write
     * to it).
     */
    static int[] unfinished(int[] members, boolean[] fin) {
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

    private static void check(long flowId, CoflowId coflow, String what, double v, boolean nanAllowed) {
        if (Double.isNaN(v) ? !nanAllowed : !(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("flow-" + flowId + " (" + coflow + "): " + what
                    + " must be a finite number >= 0, got " + v);
        }
    }

    private CoflowId lastCoflow() {
        return coflows.get(coflows.size() - 1).id();
    }

    private void checkAppendable() {
        checkOpen();
    }

    /** A flow may be added unless this is a revision that has not appended a coflow yet (the state's flows are fixed). */
    private void checkFlowAppendable() {
        checkOpen();
        if (revising && coflows.size() == kept) {
            throw new IllegalStateException("a revision changes the values of the state's flows and may append coflows "
                    + "after the ones it keeps: a flow may be added only to a coflow the revision appended");
        }
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
