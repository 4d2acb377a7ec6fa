package io.courier.simulator.engine;

import io.courier.scheduler.CoflowScheduler;
import io.courier.scheduler.enforce.OrderEnforcer;
import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.ColumnarStateBuilder;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Decision;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import io.courier.scheduler.model.SchedulerType;
import io.courier.scheduler.primitives.ToppedFlows;
import io.courier.simulator.workload.Workload;
import io.courier.simulator.workload.WorkloadCoflow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The event-driven fluid simulator (DESIGN.md "The simulator", SCHEDULERS.md §0.3): between two events
 * every flow's rate is constant, so the next event — a coflow admission, a flow completion or the
 * scheduler's wake-up — is computed exactly and time jumps to it. At every event the scheduler is called
 * through {@link CoflowScheduler} on the view its {@link CoflowScheduler#needs()} allow; order-based
 * decisions go through the scheduler's enforcer; optionally Courier's planning sits between the decision
 * and the network ({@link CourierTransport}) and the Hadoop fetch model limits the fetches each reducer
 * runs ({@link FetchGate}).
 *
 * <p>Flows whose completion instants coincide within a relative 1e-9 are completed in one event. With
 * {@link Triggers#COFLOW} the scheduler is called again only when a coflow completes (CoflowSim's
 * semantics). A simulation runs on the calling thread and owns everything it creates.
 */
public final class FluidSimulator {
    private static final long MAX_EVENTS = 50_000_000L;
    private static final double PROGRESS_EVERY_NANOS = 0.5e9;

    private final Workload workload;
    private final CoflowScheduler scheduler;
    private final String label;
    private final SimulationOptions options;
    private final ProgressListener progress;
    private final FlowTable table;
    private final FetchGate gate;
    private final CourierTransport courier;
    private final ConcurrencyMeter meter;
    private final Flow[] flowCache;
    private final CoflowId[] coflowIds;
    /**
     * Whether a wake-up after a quiet interval may be answered by {@link CoflowScheduler#skipWakeup}: only
     * when the rates applied are the decision's own (no Courier planning in between) and the option is on.
     */
    private final boolean quietSkips;
    /** Whether snapshots are built from the flow table's columns ({@link #columnarSnapshot}). */
    private boolean columnar;
    /** The flows the current event completes ({@link Epoch#completeUntil}); reused across events. */
    private int[] completed = new int[64];
    /**
     * Builds every columnar snapshot into the same arrays when the scheduler keeps no state past a call
     * ({@link CoflowScheduler#retainsStates()}); null otherwise (a fresh state per decision). A snapshot
     * lives only until the next decision: the engine keeps the decision's rates, never the state.
     */
    private final ColumnarStateBuilder recycled;
    // Per-decision arrays over the snapshot's flows, reused by every decision: the snapshot's global flow
    // numbers, and the interval's completion instants and heap keys. Only the current Epoch reads them,
    // and an Epoch is settled before the next snapshot is taken.
    private int[] globalBuf = new int[0];
    private double[] finishBuf = new double[0];
    private long[] keyBuf = new long[0];
    /** The rates of the current interval, by position (the enforcer writes them; the Epoch reads them). */
    private double[] rateBuf = new double[0];
    /**
     * Whether {@link #rateBuf} is 0 everywhere but at {@link #positiveBuf}'s positions: after an E1 decision, whose
     * flows with a rate {@link OrderEnforcer#greedyRates} lists ({@link #topped}); the next one then resets only those.
     */
    private boolean rateBufSparse;
    private final ToppedFlows topped = new ToppedFlows();
    /** Positions of the current interval with a positive rate, the first {@link #positiveCount}. */
    private int[] positiveBuf = new int[0];
    private int positiveCount;
    /**
     * Whether the next snapshot may revise the last one ({@link ColumnarStateBuilder#revise}) instead of building
     * the whole state: columnar snapshots on a recycled builder, with every flow of an admitted coflow on the
     * network (no fetch model, so the set of flows changes only with the set of coflows).
     */
    private final boolean revisable;
    /**
     * The coflows of the last columnar snapshot, in the state's order, the first {@link #snapshotCoflowCount}: a
     * revision keeps those before the first that left and appends the active coflows after them (arrivals come last
     * in the state's order).
     */
    private int[] snapshotCoflows = new int[0];
    private int snapshotCoflowCount;
    /**
     * Positions of the last snapshot whose flow is running with a last rate other than 0 (a rate of the last
     * interval, or NaN when never scheduled), the first {@link #dirtyCount}: the paused flows whose last rate the
     * interval's end must set to 0. Every other running flow's last rate is 0 already, so an interval's end
     * touches only these and the flows it sent, not the whole state.
     */
    private int[] dirtyBuf = new int[0];
    private int dirtyCount;
    private int[] nextDirtyBuf = new int[0];
    /** Positions whose values the last interval's end changed (the flows the next revision re-reads). */
    private int[] touchedBuf = new int[0];
    private int touchedCount;

    private FluidSimulator(Workload workload, CoflowScheduler scheduler, String label, SimulationOptions options,
            ProgressListener progress) {
        this.workload = workload;
        this.scheduler = scheduler;
        this.label = label;
        this.options = options;
        this.progress = progress;
        this.table = new FlowTable(workload);
        this.gate = new FetchGate(table, options.parallelCopies());
        this.courier = options.courier()
                ? new CourierTransport(workload.network(), CourierTransport.modeOf(scheduler),
                        scheduler.enforcement(), options.maxFlows(), options.minSplitSize())
                : null;
        this.meter = new ConcurrencyMeter(workload.network().hostCount());
        this.flowCache = new Flow[table.flows];
        this.quietSkips = options.skipQuietWakeups() && courier == null;
        if (quietSkips) {
            scheduler.enableWakeupSkips();
        }
        this.recycled = scheduler.retainsStates() ? null : ColumnarStateBuilder.reusable(workload.network());
        this.revisable = recycled != null && options.parallelCopies() == 0;
        this.coflowIds = new CoflowId[workload.coflows().size()];
        for (int c = 0; c < coflowIds.length; c++) {
            coflowIds[c] = CoflowId.of(workload.coflows().get(c).id());
        }
    }

    /**
     * Replays {@code workload} under {@code scheduler} until every coflow has completed.
     *
     * @param label how reports name the scheduler (its name plus any parameters)
     */
    public static SimulationResult run(Workload workload, CoflowScheduler scheduler, String label,
            SimulationOptions options, ProgressListener progress) {
        return new FluidSimulator(workload, scheduler, label, options, progress).run();
    }

    private SimulationResult run() {
        long started = System.nanoTime();
        long lastProgress = started;
        List<WorkloadCoflow> coflows = workload.coflows();
        double[] admission = admissionTimes(coflows);
        columnar = coflowsInStateOrder(admission);
        int[] pendingFlows = new int[coflows.size()];
        for (int c = 0; c < coflows.size(); c++) {
            pendingFlows[c] = table.flowsOfCoflow[c].length;
        }
        List<Integer> active = new ArrayList<>();
        List<CoflowResult> results = new ArrayList<>(coflows.size());
        int nextAdmission = 0;
        double now = coflows.isEmpty() ? 0.0 : admission[0];
        long decisions = 0;
        long events = 0;
        Epoch epoch = null;
        while (results.size() < coflows.size()) {
            if (++events > MAX_EVENTS) {
                throw new IllegalStateException(label + ": no end after " + MAX_EVENTS + " events at t=" + now
                        + " s; " + results.size() + " of " + coflows.size() + " coflows done");
            }
            boolean admitted = false;
            while (nextAdmission < coflows.size() && admission[nextAdmission] <= now) {
                active.add(nextAdmission);
                gate.admit(nextAdmission);
                nextAdmission++;
                admitted = true;
            }
            if (active.isEmpty()) {
                now = admission[nextAdmission];
                continue;
            }
            if (epoch != null && !admitted && now >= epoch.wake() && quietSkips && !epoch.completedAny()) {
                // A wake-up after a quiet interval (rates as decided, nothing arrived or finished): the
                // scheduler may prove that its decision stands, and the interval simply goes on.
                double wake = scheduler.skipWakeup(now);
                if (!Double.isNaN(wake)) {
                    epoch.extendTo(wake > now + 1e-9 * Math.max(1.0, now) ? wake : Double.POSITIVE_INFINITY);
                }
            }
            if (epoch == null || admitted || now >= epoch.wake()) {
                if (epoch != null) {
                    epoch.settle(now);
                }
                epoch = decide(now, active, admission, nextAdmission);
                decisions++;
            }
            // The next instant something happens: a completion, an admission or the scheduler's wake-up.
            double next = Math.min(epoch.nextCompletion(), epoch.wake());
            if (nextAdmission < coflows.size()) {
                next = Math.min(next, admission[nextAdmission]);
            }
            if (Double.isInfinite(next) && epoch.completedAny()) {
                // Coflow triggers: flows finished since the decision and the rest are paused; ask again.
                epoch.settle(now);
                epoch = null;
                continue;
            }
            if (Double.isInfinite(next)) {
                throw new IllegalStateException(label + " stalls at t=" + now + " s: no flow has a positive rate, "
                        + "nothing arrives and the scheduler asks for no wake-up (" + active.size()
                        + " active coflows)");
            }
            now = next;
            boolean reschedule = false;
            int doneCount = epoch.completeUntil(now);
            for (int d = 0; d < doneCount; d++) {
                int g = completed[d];
                table.state[g] = FlowTable.DONE;
                table.done[g] = true;
                table.sent[g] = table.size[g];
                reschedule |= options.triggers() == Triggers.FLOW | gate.finished(g);
                int c = table.coflowOf[g];
                if (--pendingFlows[c] == 0) {
                    WorkloadCoflow wc = coflows.get(c);
                    results.add(new CoflowResult(wc.id(), admission[c], now, wc.weight(), wc.totalBytes(),
                            wc.width(), wc.largestFlowBytes()));
                    active.remove(Integer.valueOf(c));
                    reschedule = true;
                }
            }
            if (reschedule) {
                epoch.settle(now);
                epoch = null;
            }
            long t = System.nanoTime();
            if (t - lastProgress > PROGRESS_EVERY_NANOS) {
                progress.progress(now, results.size(), coflows.size());
                lastProgress = t;
            }
        }
        if (epoch != null) {
            epoch.settle(now);
        }
        progress.progress(now, results.size(), coflows.size());
        return new SimulationResult(label, options.courier(), results, meter.stats(), decisions,
                (System.nanoTime() - started) / 1e9);
    }

    /** Calls the scheduler and fixes every running flow's rate until the next decision. */
    private Epoch decide(double now, List<Integer> active, double[] admission, int nextAdmission) {
        Snapshot snap = snapshot(now, active, admission);
        if (!snap.revised) {
            findDirty(snap.global, snap.count);
        }
        ClusterState view = snap.state.viewFor(scheduler.needs());
        Decision decision;
        try {
            decision = scheduler.schedule(view);
        } catch (RuntimeException e) {
            throw new IllegalStateException(label + " failed at t=" + now + " s with " + active.size()
                    + " active coflows: " + e.getMessage(), e);
        }
        if (rateBuf.length < snap.count) {
            rateBuf = new double[grown(snap.count)];
        }
        double[] rate;
        List<int[]> networkFlows = null;
        boolean sparse = courier == null && decision.type() == SchedulerType.ORDER_BASED
                && scheduler.enforcement() == CoflowScheduler.Enforcement.PRIORITY_GREEDY;
        double[] ownRates = courier == null ? decision.ratesMadeOn(view) : null;
        if (sparse) {
            // E1 says which flows it gave a rate; the buffer is reset at the last interval's positives only.
            if (rateBufSparse) {
                for (int k = 0; k < positiveCount; k++) {
                    rateBuf[positiveBuf[k]] = 0.0;
                }
            } else {
                Arrays.fill(rateBuf, 0.0);
            }
            rate = rateBuf;
            OrderEnforcer.greedyRates(snap.state, decision, rate, topped);
            positiveBuf = atLeast(positiveBuf, topped.count());
            topped.sortedInto(positiveBuf);
            positiveCount = topped.count();
        } else if (ownRates != null) {
            // The scheduler's own rates on this snapshot, checked when it made them and 0 for finished flows: read in
            // place, and only the unfinished flows can be positive (at trace scale most flows of a state are done).
            rate = ownRates;
            collectPositive(snap.state.unfinishedFlows(), rate);
        } else {
            rate = OrderEnforcer.rates(snap.state, decision, scheduler.enforcement(), rateBuf);
            if (courier != null) {
                networkFlows = new ArrayList<>();
                rate = courier.apply(snap.state, decision, networkFlows);
            }
            collectPositive(snap.state, rate, now);
        }
        rateBufSparse = sparse;
        int[] portFlows = networkFlows != null ? meter.portCounts(networkFlows)
                : meter.portCounts(snap.state, positiveBuf, positiveCount);
        checkCapacity(snap.state, rate, now);
        double wake = scheduler.nextWakeup(view, decision);
        if (!(wake > now + 1e-9 * Math.max(1.0, now))) {
            wake = Double.POSITIVE_INFINITY; // a wake-up at (or before) now is no later event
        }
        return new Epoch(now, snap.global, snap.count, rate, positiveBuf, positiveCount, wake, portFlows);
    }

    /** Lists the positions of {@code candidates} (ascending) with a positive rate in {@link #positiveBuf}. */
    private void collectPositive(int[] candidates, double[] rate) {
        positiveBuf = atLeast(positiveBuf, candidates.length);
        int k = 0;
        for (int i : candidates) {
            if (rate[i] > 0) {
                positiveBuf[k++] = i;
            }
        }
        positiveCount = k;
    }

    /**
     * Checks that every rate is finite and {@code >= 0} and lists the positions with a positive one in
     * {@link #positiveBuf}: the rest of the interval works on those (at trace scale ~100 of 300 000 flows).
     */
    private void collectPositive(ClusterState state, double[] rate, double now) {
        int n = state.flowCount();
        positiveBuf = atLeast(positiveBuf, n);
        int k = 0;
        for (int i = 0; i < n; i++) {
            double r = rate[i];
            if (!(r >= 0) || r == Double.POSITIVE_INFINITY) {
                throw new IllegalStateException(label + " gave " + state.flow(i) + " the rate " + r
                        + " at t=" + now + " s");
            }
            if (r > 0) {
                positiveBuf[k++] = i;
            }
        }
        positiveCount = k;
    }

    /**
     * The interval between two decisions: rates are constant, so every running flow's completion instant
     * is known up front and flows are completed in that order without touching the others; their bytes
     * are brought up to date ({@link #settle}) only when the interval ends.
     */
    private final class Epoch {
        final double start;
        /** The scheduler's next wake-up; moved on when it skips one ({@link #extendTo}). */
        private double wake;
        private final int[] flows;      // global flow numbers by position
        private final double[] rate;
        private final int[] positive;   // positions with a positive rate, the first positiveCount
        private final int positiveCount;
        private final int[] portFlows;  // sending network flows per port (up ports, then down ports)
        /**
         * The completions due by the interval's end, at the latest {@link #wake} (within {@link #completeUntil}'s
         * tolerance); later ones are left out, as the next decision comes first. At trace scale an interval of a
         * periodic scheduler sees a few hundred of tens of thousands of running flows complete, and ordering only
         * those is what keeps the queue cheap. {@link #extendTo} re-fills it when the interval goes on.
         */
        private CompletionQueue order;
        private final double[] finish;  // completion instant by position; set only for running positive positions
        private boolean completedAny;
        /** The latest completion instant {@link #order} holds: the first wake-up's {@link #limit}, or +∞ (all of them). */
        private double horizon;

        Epoch(double start, int[] global, int count, double[] rate, int[] positive, int positiveCount, double wake,
                int[] portFlows) {
            if (count > CompletionQueue.POSITION_MASK) {
                throw new IllegalStateException(label + ": more than " + CompletionQueue.POSITION_MASK
                        + " flows in one decision");
            }
            this.start = start;
            this.flows = global;
            this.rate = rate;
            this.positive = positive;
            this.positiveCount = positiveCount;
            this.wake = wake;
            this.portFlows = portFlows;
            if (finishBuf.length < count) {
                finishBuf = new double[grown(count)];
                keyBuf = new long[finishBuf.length];
            }
            this.finish = finishBuf;
            this.horizon = limit(wake);
            long[] keys = keyBuf;
            int due = 0;
            for (int k = 0; k < positiveCount; k++) {
                int i = positive[k];
                int g = global[i];
                if (table.state[g] == FlowTable.RUNNING) {
                    double at = start + table.remaining(g) / rate[i];
                    finish[i] = at;
                    if (at <= horizon) {
                        keys[due++] = CompletionQueue.key(at - start, i);
                    }
                }
            }
            this.order = new CompletionQueue(keys, due);
        }

        boolean completedAny() {
            return completedAny;
        }

        double wake() {
            return wake;
        }

        /**
         * Moves the interval's end to {@code later} (a skipped wake-up, so nothing completed yet). The first time,
         * every completion is queued: a scheduler that skips one wake-up tends to skip the next ones too, and
         * re-scanning the running flows at each of them would cost more than ordering them all once.
         */
        void extendTo(double later) {
            if (completedAny) {
                throw new IllegalStateException(label + ": an interval with completions cannot be extended");
            }
            wake = later;
            if (horizon == Double.POSITIVE_INFINITY) {
                return;
            }
            horizon = Double.POSITIVE_INFINITY;
            long[] keys = keyBuf;
            int due = 0;
            for (int k = 0; k < positiveCount; k++) {
                int i = positive[k];
                if (table.state[flows[i]] == FlowTable.RUNNING) {
                    keys[due++] = CompletionQueue.key(finish[i] - start, i);
                }
            }
            order = new CompletionQueue(keys, due);
        }

        /** The latest instant a completion event at {@code t} takes along (simultaneous within a relative 1e-9). */
        private double limit(double t) {
            return t + 1e-9 * Math.max(1.0, t - start);
        }

        double nextCompletion() {
            return order.isEmpty() ? Double.POSITIVE_INFINITY : finish[order.peek()];
        }

        /**
         * Puts into {@link #completed} the flows that complete by {@code t} — those whose instant is
         * {@code t} within a relative 1e-9 (simultaneous completions are one event) — and returns how many.
         */
        int completeUntil(double t) {
            int n = 0;
            double limit = limit(t);
            while (!order.isEmpty() && finish[order.peek()] <= limit) {
                int i = order.poll();
                table.lastRate[flows[i]] = rate[i];
                if (n == completed.length) {
                    completed = Arrays.copyOf(completed, 2 * n);
                }
                completed[n++] = flows[i];
            }
            completedAny |= n > 0;
            return n;
        }

        /**
         * Ends the interval at {@code t}: bytes sent by the flows still running, rates as measured — the flows
         * that sent, plus the paused ones whose last rate was not 0 yet ({@link #dirtyBuf}); every other running
         * flow sent nothing and keeps its last rate of 0. Records which positions changed ({@link #touchedBuf})
         * and which running flows now have a last rate other than 0 (the next {@link #dirtyBuf}).
         */
        void settle(double t) {
            meter.record(portFlows, t - start);
            int[] touched = touchedBuf = atLeast(touchedBuf, positiveCount + dirtyCount);
            int[] nextDirty = nextDirtyBuf = atLeast(nextDirtyBuf, positiveCount);
            int nt = 0;
            int nd = 0;
            for (int k = 0; k < positiveCount; k++) {
                int i = positive[k];
                int g = flows[i];
                touched[nt++] = i; // completed flows included: the revision re-reads them as finished
                if (table.state[g] == FlowTable.RUNNING && finish[i] > t) {
                    table.sent[g] = Math.min(table.size[g], table.sent[g] + rate[i] * (t - start));
                    table.lastRate[g] = rate[i];
                    nextDirty[nd++] = i;
                }
            }
            for (int k = 0; k < dirtyCount; k++) {
                int i = dirtyBuf[k];
                int g = flows[i];
                if (!(rate[i] > 0) && table.state[g] == FlowTable.RUNNING) {
                    table.lastRate[g] = 0.0; // paused this interval: sent nothing
                    touched[nt++] = i;
                }
            }
            touchedCount = nt;
            nextDirtyBuf = dirtyBuf;
            dirtyBuf = nextDirty;
            dirtyCount = nd;
        }
    }

    /**
     * When each coflow enters the network: its arrival, or with CoflowSim's admission epochs the start of
     * the epoch during which it arrives (CoflowSim admits at an epoch start every job that arrives before
     * the epoch ends, so up to one epoch early). CCTs are measured from admission.
     */
    private double[] admissionTimes(List<WorkloadCoflow> coflows) {
        double[] t = new double[coflows.size()];
        double e = options.admissionEpoch();
        for (int c = 0; c < t.length; c++) {
            double a = coflows.get(c).arrival();
            t[c] = e > 0 ? Math.max(0.0, Math.ceil(a / e) - 1) * e : a;
        }
        return t;
    }

    /** The state the scheduler sees, plus the global number of each of its flows ({@code global[0..count)}). */
    private static final class Snapshot {
        final ClusterState state;
        final int[] global;
        final int count;
        /** Whether it revises the last snapshot (same flows at the same positions) rather than being built whole. */
        final boolean revised;

        Snapshot(ClusterState state, int[] global, int count, boolean revised) {
            this.state = state;
            this.global = global;
            this.count = count;
            this.revised = revised;
        }
    }

    /** Room for at least {@code n} entries with headroom, so that buffers regrow rarely. */
    private static int grown(int n) {
        return Math.max(16, n + (n >> 2));
    }

    /** {@code buf} when it holds at least {@code n} entries, else a larger copy of it. */
    private static int[] keeping(int[] buf, int n) {
        return buf.length >= n ? buf : Arrays.copyOf(buf, grown(n));
    }

    /** {@code buf} when it holds at least {@code n} entries, else a fresh, larger array (its content is not kept). */
    private static int[] atLeast(int[] buf, int n) {
        return buf.length >= n ? buf : new int[grown(n)];
    }

    private Snapshot snapshot(double now, List<Integer> active, double[] admission) {
        if (columnar) {
            return columnarSnapshot(now, active, admission);
        }
        Network net = workload.network();
        ClusterState.Builder b = ClusterState.builder(net).now(now);
        int capacity = 0;
        for (int c : active) {
            capacity += table.flowsOfCoflow[c].length;
        }
        b.expectFlows(capacity);
        int[] g = globalBuf = atLeast(globalBuf, capacity);
        int n = 0;
        for (int c : active) {
            CoflowId id = coflowIds[c];
            b.coflow(coflow(c, admission));
            for (int flow : table.flowsOfCoflow[c]) {
                if (table.state[flow] == FlowTable.WAITING) {
                    continue; // a fetch not started yet is not on the network
                }
                b.flow(flowObject(flow, id));
                g[n++] = flow;
            }
        }
        return new Snapshot(b.build(), g, n, false);
    }

    /**
     * The same state as {@link #snapshot}'s general path, built from the flow table's arrays without flow
     * objects (possible when coflows in workload order are in the state's (admission, id) order, which is
     * the usual case: then flow numbers ascend through the state as {@link ColumnarStateBuilder} needs).
     */
    private Snapshot columnarSnapshot(double now, List<Integer> active, double[] admission) {
        if (revisable && snapshotCoflowCount > 0) {
            int keep = 0; // the last snapshot's coflows before the first that left
            while (keep < snapshotCoflowCount && keep < active.size() && active.get(keep) == snapshotCoflows[keep]) {
                keep++;
            }
            if (keep > 0) {
                return revisedSnapshot(now, active, keep, admission);
            }
        }
        int capacity = 0;
        for (int c : active) {
            capacity += table.flowsOfCoflow[c].length;
        }
        ColumnarStateBuilder b = recycled != null ? recycled.begin().now(now)
                : new ColumnarStateBuilder(workload.network(), active.size(), capacity).now(now);
        int[] g = globalBuf = atLeast(globalBuf, capacity);
        int n = 0;
        boolean nothingWaits = options.parallelCopies() == 0; // then every flow of an admitted coflow has started
        for (int c : active) {
            int[] members = table.flowsOfCoflow[c];
            if (nothingWaits) {
                addWholeCoflow(b, c, admission);
                for (int k = 0; k < members.length; k++) {
                    g[n++] = members[k];
                }
                continue;
            }
            b.coflow(coflow(c, admission));
            for (int flow : members) {
                byte state = table.state[flow];
                if (state == FlowTable.WAITING) {
                    continue; // a fetch not started yet is not on the network
                }
                double rate = table.lastRate[flow];
                b.flow(flow, table.src[flow], table.dst[flow], table.size[flow], table.sent[flow],
                        state == FlowTable.DONE, rate, rate);
                g[n++] = flow;
            }
        }
        noteSnapshotCoflows(active, 0);
        return new Snapshot(b.build(), g, n, false);
    }

    /** Notes {@code active} as the coflows of the snapshot being built, of which the first {@code kept} are noted. */
    private void noteSnapshotCoflows(List<Integer> active, int kept) {
        if (snapshotCoflows.length < active.size()) {
            snapshotCoflows = Arrays.copyOf(snapshotCoflows, grown(active.size()));
        }
        for (int k = kept; k < active.size(); k++) {
            snapshotCoflows[k] = active.get(k);
        }
        snapshotCoflowCount = active.size();
    }

    /** Coflow {@code c} as the state sees it. */
    private Coflow coflow(int c, double[] admission) {
        return new Coflow(coflowIds[c], admission[c], workload.coflows().get(c).weight());
    }

    /**
     * Adds coflow {@code c} and every flow of it: a coflow's flows are numbered side by side, so its columns are
     * copied in bulk.
     */
    private void addWholeCoflow(ColumnarStateBuilder b, int c, double[] admission) {
        b.coflow(coflow(c, admission));
        int[] members = table.flowsOfCoflow[c];
        if (members.length > 0) {
            int first = members[0];
            b.flowRange(first, first, members.length, table.src, table.dst, table.size, table.sent, table.done,
                    table.lastRate, table.lastRate);
        }
    }

    /**
     * The last snapshot with the values of the flows the last interval's end changed, its first {@code keep} coflows
     * kept — all of them unless one left, else those before the first that left — and the active coflows after those
     * appended (the coflows admitted since, which come last in the state's order, and those that followed a coflow
     * that left). The kept flows stay at their positions, so {@link #globalBuf} still maps them and only the
     * appended flows are added to it — and to {@link #dirtyBuf} when running with a last rate other than 0, as
     * {@link #findDirty} would list them.
     */
    private Snapshot revisedSnapshot(double now, List<Integer> active, int keep, double[] admission) {
        int cut = 0;
        for (int k = 0; k < keep; k++) {
            cut += table.flowsOfCoflow[snapshotCoflows[k]].length;
        }
        if (keep < snapshotCoflowCount) {
            // Positions from the cut on are the dropped coflows' and are listed again from the flow table below.
            touchedCount = below(touchedBuf, touchedCount, cut);
            dirtyCount = below(dirtyBuf, dirtyCount, cut);
        }
        ColumnarStateBuilder b = recycled.revise(now, keep);
        int[] g = globalBuf;
        b.reviseFlows(touchedBuf, touchedCount, g, table.sent, table.done, table.lastRate);
        touchedCount = 0;
        if (keep < active.size()) {
            int n = cut;
            int extra = 0;
            for (int k = keep; k < active.size(); k++) {
                extra += table.flowsOfCoflow[active.get(k)].length;
            }
            g = globalBuf = keeping(globalBuf, n + extra);
            dirtyBuf = keeping(dirtyBuf, dirtyCount + extra);
            for (int k = keep; k < active.size(); k++) {
                int c = active.get(k);
                addWholeCoflow(b, c, admission);
                for (int flow : table.flowsOfCoflow[c]) {
                    if (table.state[flow] == FlowTable.RUNNING && !(table.lastRate[flow] == 0.0)) {
                        dirtyBuf[dirtyCount++] = n;
                    }
                    g[n++] = flow;
                }
            }
        }
        noteSnapshotCoflows(active, keep);
        ClusterState state = b.build();
        return new Snapshot(state, g, state.flowCount(), true);
    }

    /** Keeps the first {@code count} entries of {@code positions} that are below {@code cut}, in order; returns how many. */
    private static int below(int[] positions, int count, int cut) {
        int n = 0;
        for (int k = 0; k < count; k++) {
            if (positions[k] < cut) {
                positions[n++] = positions[k];
            }
        }
        return n;
    }

    /** Lists the positions of a whole new snapshot whose flow runs with a last rate other than 0 ({@link #dirtyBuf}). */
    private void findDirty(int[] global, int n) {
        dirtyBuf = atLeast(dirtyBuf, n);
        int k = 0;
        for (int i = 0; i < n; i++) {
            int flow = global[i];
            if (table.state[flow] == FlowTable.RUNNING && !(table.lastRate[flow] == 0.0)) {
                dirtyBuf[k++] = i;
            }
        }
        dirtyCount = k;
        touchedCount = 0;
    }

    /** True when (admission, id) ascends strictly with the workload's coflow order. */
    private boolean coflowsInStateOrder(double[] admission) {
        for (int c = 1; c < admission.length; c++) {
            int cmp = Double.compare(admission[c - 1], admission[c]);
            if (cmp > 0 || cmp == 0 && coflowIds[c - 1].compareTo(coflowIds[c]) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The model's view of flow {@code g}. Finished and paused flows do not change between decisions, so
     * their last object is reused: at trace scale most flows of an active coflow are in one of those states.
     */
    private Flow flowObject(int g, CoflowId coflow) {
        Flow cached = flowCache[g];
        boolean done = table.state[g] == FlowTable.DONE;
        if (cached != null && cached.sent() == table.sent[g] && cached.finished() == done
                && sameRate(cached, table.lastRate[g])) {
            return cached;
        }
        FlowId id = cached != null ? cached.id() : FlowId.of(g);
        Flow.Builder fb = Flow.builder(id, coflow, table.src[g], table.dst[g])
                .size(table.size[g]).sent(table.sent[g]).finished(done);
        if (!Double.isNaN(table.lastRate[g])) {
            fb.measuredRate(table.lastRate[g]).lastDesiredRate(table.lastRate[g]);
        }
        Flow f = fb.build();
        flowCache[g] = f;
        return f;
    }

    private static boolean sameRate(Flow f, double rate) {
        return Double.isNaN(rate) ? !f.hasMeasuredRate() : f.hasMeasuredRate() && f.measuredRate() == rate;
    }

    private void checkCapacity(ClusterState state, double[] rate, double now) {
        Network net = state.network();
        double[] used = new double[net.resourceCount()];
        // Only the positive rates add anything (collectPositive checked them all).
        for (int k = 0; k < positiveCount; k++) {
            int i = positiveBuf[k];
            state.addToResources(i, rate[i], used);
        }
        for (int p = 0; p < used.length; p++) {
            if (used[p] > net.capacity(p) * (1 + 1e-6) + net.rateEpsilon()) {
                throw new IllegalStateException(label + " overbooks " + net.resourceName(p) + " at t=" + now
                        + " s: " + used[p] + " > capacity " + net.capacity(p));
            }
        }
    }
}
