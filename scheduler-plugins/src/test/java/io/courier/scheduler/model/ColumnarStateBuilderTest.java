package io.courier.scheduler.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * A state built from columns is the state {@link ClusterState.Builder} makes from the equivalent flow
 * objects (same indices, flows, derived indexes and column reads), and bad input is rejected with the
 * flow or coflow named.
 */
@Timeout(10)
class ColumnarStateBuilderTest {
    private static final Network NET = Network.uniform(5, 100.0);

    private static void rejects(Executable e, String... fragments) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String f : fragments) {
            assertTrue(x.getMessage().contains(f), "message '" + x.getMessage() + "' lacks '" + f + "'");
        }
    }

    /** Adds the same random coflows and flows (ids from {@code firstId} up) to both builders. */
    private static void fill(Random rnd, int coflows, int maxFlows, long firstId, ColumnarStateBuilder columnar,
            ClusterState.Builder objects) {
        columnar.now(7.5);
        objects.now(7.5);
        long id = firstId;
        for (int c = 0; c < coflows; c++) {
            Coflow coflow = new Coflow(CoflowId.of(10 + c), c < 2 ? 1.0 : 2.0 + c, 1 + c);
            columnar.coflow(coflow);
            objects.coflow(coflow);
            for (int k = 0; k < 1 + rnd.nextInt(maxFlows); k++) {
                int src = rnd.nextInt(5);
                int dst = rnd.nextInt(5);
                double size = 100 + rnd.nextInt(1000);
                double sent = rnd.nextInt(3) == 0 ? size : rnd.nextInt((int) size);
                boolean finished = sent == size;
                double rate = rnd.nextBoolean() ? Double.NaN : rnd.nextInt(50);
                id += 1 + rnd.nextInt(3);
                columnar.flow(id, src, dst, size, sent, finished, rate, rate);
                Flow.Builder f = Flow.builder(FlowId.of(id), coflow.id(), src, dst).size(size).sent(sent)
                        .finished(finished);
                if (!Double.isNaN(rate)) {
                    f.measuredRate(rate).lastDesiredRate(rate);
                }
                objects.flow(f.build());
            }
        }
    }

    private static void assertSameGroup(PortGroups expected, PortGroups actual, int host) {
        assertEquals(expected.count(host), actual.count(host));
        for (int j = 0; j < expected.count(host); j++) {
            assertEquals(expected.flow(host, j), actual.flow(host, j));
        }
    }

    /** {@code a} reads exactly like {@code b} through every accessor, and so does its size-hiding view. */
    private static void assertSameState(ClusterState b, ClusterState a) {
        assertEquals(b.now(), a.now());
        assertEquals(b.coflows(), a.coflows());
        assertEquals(b.flows(), a.flows());
        assertEquals(b.flowCount(), a.flowCount());
        assertArrayEquals(b.unfinishedFlows(), a.unfinishedFlows());
        for (int c = 0; c < b.coflowCount(); c++) {
            assertArrayEquals(b.flowsOf(c), a.flowsOf(c));
            assertArrayEquals(b.unfinishedFlowsOf(c), a.unfinishedFlowsOf(c));
            assertEquals(b.sentBy(c), a.sentBy(c));
            assertEquals(c, a.indexOf(b.coflow(c).id()));
            assertArrayEquals(b.remainingPortLoads(c), a.remainingPortLoads(c), 0.0);
            PortSums sentB = b.sentPortSums(c);
            PortSums sentA = a.sentPortSums(c);
            assertEquals(sentB.size(), sentA.size());
            for (int k = 0; k < sentB.size(); k++) {
                assertEquals(sentB.port(k), sentA.port(k));
                assertEquals(sentB.sum(k), sentA.sum(k), 0.0);
            }
            assertEquals(sentB.max(), sentA.max(), 0.0);
            assertArrayEquals(b.sourceHostsOf(c), a.sourceHostsOf(c));
            assertArrayEquals(b.destinationHostsOf(c), a.destinationHostsOf(c));
            for (int h = 0; h < NET.hostCount(); h++) {
                assertSameGroup(b.unfinishedBySrc(c), a.unfinishedBySrc(c), h);
                assertSameGroup(b.unfinishedByDst(c), a.unfinishedByDst(c), h);
            }
        }
        for (int i = 0; i < b.flowCount(); i++) {
            assertEquals(i, a.indexOf(b.flow(i).id()));
            assertEquals(b.flow(i).id().value(), a.flowIdValue(i));
            assertEquals(b.coflowOf(i), a.coflowOf(i));
            assertArrayEquals(b.resourcesOf(i), a.resourcesOf(i));
            assertEquals(b.finished(i), a.finished(i));
            assertEquals(b.src(i), a.src(i));
            assertEquals(b.dst(i), a.dst(i));
            assertEquals(b.sent(i), a.sent(i));
            assertEquals(b.remaining(i), a.remaining(i));
            assertEquals(b.flow(i).remaining(), a.remaining(i));
        }
        assertEquals(-1, a.indexOf(FlowId.of(1)));
        ClusterState hiddenA = a.withSizesHidden();
        ClusterState hiddenB = b.withSizesHidden();
        assertEquals(hiddenB.flows(), hiddenA.flows());
        assertTrue(hiddenA.hasSameFlowsAs(a));
        for (int c = 0; c < a.coflowCount(); c++) {
            if (a.unfinishedFlowsOf(c).length > 0) {
                int coflow = c;
                assertThrows(HiddenInformationException.class, () -> hiddenA.remainingPortLoads(coflow));
            }
        }
    }

    /** Coflow {@code id} (weight 1) added to both builders. */
    private static Coflow coflowInBoth(ColumnarStateBuilder columnar, ClusterState.Builder objects, long id,
            double arrival) {
        Coflow coflow = new Coflow(CoflowId.of(id), arrival, 1.0);
        columnar.coflow(coflow);
        objects.coflow(coflow);
        return coflow;
    }

    /** Random values of {@code n} flows over the test network's hosts, kept in columns as a driver keeps them. */
    private static final class Columns {
        final int[] src;
        final int[] dst;
        final double[] size;
        final double[] sent;
        final boolean[] done;
        final double[] rate;

        Columns(Random rnd, int n) {
            src = new int[n];
            dst = new int[n];
            size = new double[n];
            sent = new double[n];
            done = new boolean[n];
            rate = new double[n];
            for (int i = 0; i < n; i++) {
                src[i] = rnd.nextInt(5);
                dst[i] = rnd.nextInt(5);
                size[i] = 100 + rnd.nextInt(1000);
                done[i] = rnd.nextInt(3) == 0;
                sent[i] = done[i] ? size[i] : rnd.nextInt((int) size[i]);
                rate[i] = rnd.nextBoolean() ? Double.NaN : rnd.nextInt(50);
            }
        }

        /** Flow {@code i} as an object, with id {@code id}, of {@code coflow}. */
        Flow flow(long id, CoflowId coflow, int i) {
            Flow.Builder f = Flow.builder(FlowId.of(id), coflow, src[i], dst[i]).size(size[i]).sent(sent[i])
                    .finished(done[i]);
            if (!Double.isNaN(rate[i])) {
                f.measuredRate(rate[i]).lastDesiredRate(rate[i]);
            }
            return f.build();
        }
    }

    @Test
    void sameStateAsTheObjectBuilder() {
        Random rnd = new Random(42);
        ColumnarStateBuilder columnar = new ColumnarStateBuilder(NET, 4, 3); // too little room: must grow
        ClusterState.Builder objects = ClusterState.builder(NET);
        fill(rnd, 4, 6, 3, columnar, objects);
        assertSameState(objects.build(), columnar.build());
    }

    /**
     * A reusable builder's states, built one after another into the same (growing) arrays, each read
     * exactly like a fresh object-built state, whether the next one is larger or smaller; ids of an earlier,
     * larger state that the current one lacks are not found in it.
     */
    @Test
    void reusableBuilderBuildsEveryStateOfASequenceExactly() {
        Random rnd = new Random(7);
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        int[][] shapes = {{3, 4}, {6, 400}, {2, 3}, {1, 1}, {5, 900}, {4, 6}};
        long firstId = 3;
        for (int[] shape : shapes) {
            ClusterState.Builder objects = ClusterState.builder(NET);
            fill(rnd, shape[0], shape[1], firstId, reusable.begin(), objects);
            ClusterState expected = objects.build();
            ClusterState built = reusable.build();
            assertSameState(expected, built);
            long beyond = expected.flow(expected.flowCount() - 1).id().value() + 1;
            assertEquals(-1, built.indexOf(FlowId.of(beyond)));
            assertThrows(IndexOutOfBoundsException.class, () -> built.flow(expected.flowCount()));
            assertThrows(IllegalStateException.class, reusable::build);
        }
        assertThrows(IllegalStateException.class, () -> new ColumnarStateBuilder(NET, 1, 1).begin());
    }

    /**
     * A revision ({@link ColumnarStateBuilder#revise}) of the state built last, over several rounds (a revision of
     * a revision), reads exactly like a state built whole from the new values: flows finishing and (for the API's
     * sake) unfinishing, sent bytes and rates changing, some flows revised twice in a round, rounds that change no
     * finished flag. Rounds 2, 5 and 6 give their values in bulk ({@link ColumnarStateBuilder#reviseFlows}, from a
     * driver's columns through a position map). A whole state can be begun again afterwards.
     */
    @Test
    void revisionIsTheStateBuiltWholeWithTheNewValues() {
        Random rnd = new Random(19);
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        ClusterState.Builder objects = ClusterState.builder(NET);
        fill(rnd, 5, 60, 3, reusable.begin(), objects);
        ClusterState first = objects.build();
        ClusterState built = reusable.build();
        assertSameState(first, built);
        java.util.List<Flow> flows = new java.util.ArrayList<>(first.flows());
        // A driver's columns for the bulk rounds, in reverse order of the state's flows (the map is not the identity).
        int n = flows.size();
        int[] source = new int[n];
        for (int i = 0; i < n; i++) {
            source[i] = n - 1 - i;
        }
        double[] driverSent = new double[n];
        boolean[] driverDone = new boolean[n];
        double[] driverRate = new double[n];
        for (int round = 0; round < 7; round++) {
            double now = 8.0 + round;
            reusable.revise(now);
            boolean bulk = round == 2 || round >= 5;
            int[] positions = new int[64];
            int count = 0;
            // Finish-only rounds finish several flows of a coflow at once.
            int changes = round == 4 ? 0 : round % 3 == 0 ? 10 + rnd.nextInt(20) : 1 + rnd.nextInt(20);
            for (int k = 0; k < changes; k++) {
                int i = rnd.nextInt(flows.size());
                Flow f = flows.get(i);
                // Rounds that only finish flows (the simulator's case), that change values only, and that do both
                // ways.
                boolean done = round % 3 == 0 ? f.finished() || rnd.nextInt(2) == 0
                        : round % 3 == 1 ? f.finished() : rnd.nextInt(3) == 0;
                double sent = done ? f.size() : Math.min(f.size() - 1, f.sent() + rnd.nextInt(50));
                double rate = rnd.nextBoolean() ? Double.NaN : rnd.nextInt(50);
                if (bulk) {
                    driverSent[source[i]] = sent;
                    driverDone[source[i]] = done;
                    driverRate[source[i]] = rate;
                    positions[count++] = i;
                } else {
                    reusable.reviseFlow(i, sent, done, rate, rate);
                }
                Flow.Builder b = Flow.builder(f.id(), f.coflow(), f.src(), f.dst()).size(f.size()).sent(sent)
                        .finished(done);
                if (!Double.isNaN(rate)) {
                    b.measuredRate(rate).lastDesiredRate(rate);
                }
                flows.set(i, b.build());
            }
            if (bulk) {
                reusable.reviseFlows(positions, count, source, driverSent, driverDone, driverRate);
            }
            ClusterState.Builder expected = ClusterState.builder(NET).now(now).coflows(first.coflows());
            expected.flows(flows);
            ClusterState revised = reusable.build();
            if (round == 1) {
                continue; // nothing read: the next revision's loads are out of date on the ports of both rounds
            }
            assertSameState(expected.build(), revised);
            assertTrue(revised.hasSameFlowsAs(built), "a revision keeps the flows at their indices");
            assertFalse(revised.isSnapshotOf(built), "but it is another snapshot (other values)");
            assertTrue(revised.withSizesHidden().isSnapshotOf(revised), "a view is the same snapshot");
            assertThrows(IllegalStateException.class, reusable::build);
        }
        fill(rnd, 2, 3, 1000, reusable.begin(), ClusterState.builder(NET));
        assertEquals(2, reusable.build().coflowCount());
    }

    /**
     * A whole state built after another keeps the per-coflow sums (port loads, host groups) of the coflows that
     * come again with the same flows and values, moved to their new place — here after a departure (later coflows
     * move left) and an arrival, with one coflow whose sent bytes changed (groups carried, loads redone), one with a
     * newly finished flow (both redone), one added flow by flow, and one that moved right (must compute afresh) —
     * and reads exactly like the state built from flow objects.
     */
    @Test
    void wholeStatesAfterArrivalsAndDeparturesKeepTheSumsOfUnchangedCoflows() {
        Random rnd = new Random(23);
        int coflowCount = 7;
        int[] first = new int[coflowCount + 1];
        int total = 0;
        for (int c = 0; c < coflowCount; c++) {
            first[c] = total;
            total += 1 + rnd.nextInt(40);
        }
        first[coflowCount] = total;
        int[] src = new int[total];
        int[] dst = new int[total];
        double[] size = new double[total];
        double[] sent = new double[total];
        boolean[] done = new boolean[total];
        double[] rate = new double[total];
        for (int f = 0; f < total; f++) {
            src[f] = rnd.nextInt(5);
            dst[f] = rnd.nextInt(5);
            size[f] = 100 + rnd.nextInt(100);
            done[f] = rnd.nextInt(4) == 0 && f != first[4 + 1] - 1; // coflow 4 keeps an unfinished flow
            sent[f] = done[f] ? size[f] : rnd.nextInt(100);
            rate[f] = Double.NaN;
        }
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        int[][] sequence = {{0, 1, 2, 3, 4}, {0, 2, 3, 4, 5}, {0, 2, 4, 5, 6}, {0, 1, 2, 4, 5, 6}};
        assertTrue(IntStream.range(first[2], first[3]).filter(f -> !done[f]).count() >= 1, "coflow 2 has a flow to finish");
        for (int round = 0; round < sequence.length; round++) {
            if (round == 2) {
                int f = first[4]; // coflow 4 sent more: its sums must be redone
                while (done[f]) {
                    f++;
                }
                sent[f] += 7;
            }
            if (round == 3) {
                int f = first[2]; // a flow of coflow 2 finished: its host groups must be redone, not carried
                while (done[f]) {
                    f++;
                }
                done[f] = true;
                sent[f] = size[f];
            }
            reusable.begin().now(round);
            ClusterState.Builder objects = ClusterState.builder(NET).now(round);
            for (int c : sequence[round]) {
                Coflow coflow = coflowInBoth(reusable, objects, 100 + c, c);
                int n = first[c + 1] - first[c];
                if (round == 3 && c == 5) {
                    for (int f = first[c]; f < first[c + 1]; f++) { // flow by flow: no carry
                        reusable.flow(1000 + f, src[f], dst[f], size[f], sent[f], done[f], rate[f], rate[f]);
                    }
                } else {
                    reusable.flowRange(1000 + first[c], first[c], n, src, dst, size, sent, done, rate, rate);
                }
                for (int f = first[c]; f < first[c + 1]; f++) {
                    objects.flow(Flow.builder(FlowId.of(1000 + f), coflow.id(), src[f], dst[f]).size(size[f]).sent(sent[f])
                            .finished(done[f]).build());
                }
            }
            assertSameState(objects.build(), reusable.build()); // also computes every sum for the next round
        }
    }

    /**
     * A whole state after a departure reuses the members, unfinished lists and resource entries of the coflows that
     * keep their place (those before the one that left) and reads exactly like the state built from flow objects: also
     * when the last state was a revision that finished flows of a kept coflow, and not when the columns grew in
     * between (the lent buffers are then new and every coflow is placed again — a kept coflow of index 1 would read as
     * coflow 0 and without resources if it were not).
     */
    @Test
    void wholeStatesAfterADepartureKeepThePlaceOfTheCoflowsBeforeIt() {
        Random rnd = new Random(31);
        int[] widths = {30, 25, 20, 2000, 15};
        int[] first = new int[widths.length + 1];
        for (int c = 0; c < widths.length; c++) {
            first[c + 1] = first[c] + widths[c];
        }
        Columns v = new Columns(rnd, first[widths.length]);
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        // Coflows by round: 2 leaves after 0 and 1; 3 arrives (2000 flows: the columns grow); 0 leaves (1 and 3 move).
        int[][] sequence = {{0, 1, 2}, {0, 1}, {0, 1, 3}, {0, 1, 3, 4}, {1, 3, 4}};
        for (int round = 0; round < sequence.length; round++) {
            if (round == 1) {
                // The state before the departure is a revision that finishes flows of coflow 1 (its lists are cut).
                reusable.revise(0.5);
                for (int f = first[1]; f < first[2]; f += 3) {
                    v.done[f] = true;
                    v.sent[f] = v.size[f];
                    reusable.reviseFlow(f, v.sent[f], true, v.rate[f], v.rate[f]); // coflow 0 comes first: index f
                }
                reusable.build();
            }
            reusable.begin().now(round);
            ClusterState.Builder objects = ClusterState.builder(NET).now(round);
            for (int c : sequence[round]) {
                Coflow coflow = coflowInBoth(reusable, objects, 200 + c, c);
                reusable.flowRange(5000 + first[c], first[c], widths[c], v.src, v.dst, v.size, v.sent, v.done, v.rate,
                        v.rate);
                for (int f = first[c]; f < first[c + 1]; f++) {
                    objects.flow(v.flow(5000 + f, coflow.id(), f));
                }
            }
            assertSameState(objects.build(), reusable.build());
        }
    }

    /**
     * A revision that keeps only the coflows before the first that left ({@code revise(now, keep)}) and appends the
     * rest again reads exactly like the state built whole from flow objects, over rounds in which a kept coflow's
     * flows send and finish, a coflow that moves left sent more (its loads carried as stale) or had a flow finish
     * (nothing carried), the first coflow leaves (nothing kept), the last leaves (nothing appended), and an appended
     * coflow outgrows the buffers the states share (the builder then builds the whole state, and must not carry the
     * kept coflows' sums from notes of an older build).
     */
    @Test
    void revisionAfterADepartureKeepsTheCoflowsBeforeIt() {
        Random rnd = new Random(37);
        int[] widths = {30, 25, 20, 40, 15, 2000, 10};
        int[] first = new int[widths.length + 1];
        for (int c = 0; c < widths.length; c++) {
            first[c + 1] = first[c] + widths[c];
        }
        Columns v = new Columns(rnd, first[widths.length]);
        Coflow[] coflows = new Coflow[widths.length];
        for (int c = 0; c < widths.length; c++) {
            coflows[c] = new Coflow(CoflowId.of(300 + c), c, 1.0);
        }
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        int[][] sequence = {{0, 1, 2, 3}, {0, 1, 3, 4}, {0, 1, 3, 4}, {1, 3, 4}, {1, 3}, {1, 5}, {1, 5, 6}, {5, 6}};
        int[] previous = null;
        for (int round = 0; round < sequence.length; round++) {
            int[] seq = sequence[round];
            int keep = 0;
            while (previous != null && keep < previous.length && keep < seq.length && previous[keep] == seq[keep]) {
                keep++;
            }
            // New values for some flows of every coflow of this round: in kept coflows they are revised, the others
            // come again whole from the columns. Coflow 3 sends more before it moves left (round 1), coflow 4 has a
            // flow finish before it moves left (round 3). Coflow 1 comes again unchanged in round 3 (its sums are
            // carried), so its carry note is an older build's when round 5 falls back to a whole build.
            java.util.List<int[]> revisions = new java.util.ArrayList<>(); // {state index, flow}
            int at = 0;
            for (int k = 0; k < seq.length; k++) {
                int c = seq[k];
                int target = -1; // the flow that must change
                if (round == 1 && c == 3 || round == 3 && c == 4) {
                    target = first[c];
                    while (v.done[target]) {
                        target++;
                    }
                }
                for (int f = first[c]; f < first[c + 1]; f++) {
                    boolean change = round > 0 && !v.done[f]
                            && (rnd.nextInt(4) == 0 && !(round == 3 && c == 1) || f == target);
                    if (change) {
                        boolean finish = rnd.nextInt(3) == 0 || round == 3 && c == 4;
                        v.sent[f] = finish ? v.size[f] : Math.min(v.size[f] - 1, v.sent[f] + 1 + rnd.nextInt(50));
                        v.done[f] = finish;
                        v.rate[f] = rnd.nextInt(50);
                        if (k < keep) {
                            revisions.add(new int[] {at + f - first[c], f});
                        }
                    }
                }
                at += widths[c];
            }
            ClusterState.Builder objects = ClusterState.builder(NET).now(round);
            if (previous == null) {
                reusable.begin().now(round);
            } else {
                reusable.revise(round, keep);
                for (int[] r : revisions) {
                    reusable.reviseFlow(r[0], v.sent[r[1]], v.done[r[1]], v.rate[r[1]], v.rate[r[1]]);
                }
            }
            for (int k = 0; k < seq.length; k++) {
                int c = seq[k];
                Coflow coflow = coflows[c];
                objects.coflow(coflow);
                if (previous == null || k >= keep) {
                    reusable.coflow(coflow);
                    reusable.flowRange(7000 + first[c], first[c], widths[c], v.src, v.dst, v.size, v.sent, v.done,
                            v.rate, v.rate);
                }
                for (int f = first[c]; f < first[c + 1]; f++) {
                    objects.flow(v.flow(7000 + f, coflow.id(), f));
                }
            }
            assertSameState(objects.build(), reusable.build()); // also computes every sum for the next round
            previous = seq;
        }
        rejects(() -> reusable.revise(9.0, 3), "0 to 2 coflows", "not 3");
        reusable.revise(9.0, 1);
        rejects(() -> reusable.reviseFlow(widths[5], 1, false, 1, 1), "flow index " + widths[5], widths[5] + " flows");
    }

    /**
     * A coflow's hosts (all its flows', finished ones included) follow it through revisions: when a flow finishes,
     * when the coflow is kept before a departure, and when it moves to a lower index after one (appended again, or
     * in a whole build after the first coflow leaves). The coflows touch disjoint hosts, so hosts carried from the
     * wrong coflow show.
     */
    @Test
    void hostsOfACoflowFollowItThroughRevisions() {
        Network net = Network.uniform(8, 100.0);
        ColumnarStateBuilder b = ColumnarStateBuilder.reusable(net);
        Coflow a = new Coflow(CoflowId.of(1), 0, 1.0);
        Coflow m = new Coflow(CoflowId.of(2), 1, 1.0);
        Coflow z = new Coflow(CoflowId.of(3), 2, 1.0);
        b.begin().now(0).coflow(a).flow(10, 1, 2, 50, 0, false, 0, 0).flow(11, 0, 2, 50, 0, false, 0, 0)
                .coflow(m).flow(20, 3, 5, 50, 0, false, 0, 0).flow(21, 3, 4, 50, 0, false, 0, 0)
                .coflow(z).flow(30, 6, 7, 50, 0, false, 0, 0).flow(31, 6, 0, 50, 0, false, 0, 0);
        ClusterState s = b.build();
        int[][] src = {{0, 1}, {3}, {6}};
        int[][] dst = {{2}, {4, 5}, {0, 7}};
        for (int c = 0; c < 3; c++) {
            assertArrayEquals(src[c], s.sourceHostsOf(c));
            assertArrayEquals(dst[c], s.destinationHostsOf(c));
        }
        b.revise(1).reviseFlow(1, 50, true, 0, 0); // a's flow from host 0 finishes: its hosts stay
        s = b.build();
        assertArrayEquals(src[0], s.sourceHostsOf(0));
        b.revise(2, 1).coflow(z).flow(30, 6, 7, 50, 1, false, 0, 0).flow(31, 6, 0, 50, 1, false, 0, 0);
        s = b.build(); // m left: a kept, z appended again at index 1
        assertArrayEquals(src[0], s.sourceHostsOf(0));
        assertArrayEquals(src[2], s.sourceHostsOf(1));
        assertArrayEquals(dst[2], s.destinationHostsOf(1));
        b.revise(3, 0).coflow(z).flow(30, 6, 7, 50, 2, false, 0, 0).flow(31, 6, 0, 50, 2, false, 0, 0);
        s = b.build(); // a left: z alone, at index 0
        assertArrayEquals(src[2], s.sourceHostsOf(0));
        assertArrayEquals(dst[2], s.destinationHostsOf(0));
    }

    /**
     * Coflows appended to a revision (arrivals) give the state built whole with them: over six rounds that also
     * revise the earlier flows (finishing some), append through {@code flowRange} and flow by flow, skip reading one
     * round's state (sums out of date over two rounds), revise flows appended the round before, and append more flows
     * than the buffers the states share can hold (the builder then builds the whole state).
     */
    @Test
    void revisionAppendsArrivingCoflows() {
        Random rnd = new Random(29);
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        ClusterState.Builder objects = ClusterState.builder(NET);
        fill(rnd, 3, 30, 3, reusable.begin(), objects);
        ClusterState first = objects.build();
        assertSameState(first, reusable.build());
        java.util.List<Coflow> coflows = new java.util.ArrayList<>(first.coflows());
        java.util.List<Flow> flows = new java.util.ArrayList<>(first.flows());
        long nextId = flows.get(flows.size() - 1).id().value() + 1;
        for (int round = 0; round < 6; round++) {
            double now = 20.0 + round;
            reusable.revise(now);
            for (int k = 0, changes = 1 + rnd.nextInt(15); k < changes; k++) {
                int i = rnd.nextInt(flows.size());
                Flow f = flows.get(i);
                if (f.finished()) {
                    continue;
                }
                boolean done = rnd.nextInt(3) == 0;
                double sent = done ? f.size() : Math.min(f.size() - 1, f.sent() + rnd.nextInt(50));
                reusable.reviseFlow(i, sent, done, 5, 5);
                flows.set(i, Flow.builder(f.id(), f.coflow(), f.src(), f.dst()).size(f.size()).sent(sent)
                        .finished(done).measuredRate(5).lastDesiredRate(5).build());
            }
            for (int j = 0, arrivals = 1 + rnd.nextInt(2); j < arrivals; j++) {
                Coflow coflow = new Coflow(CoflowId.of(100 + 2 * round + j), 10.0 + round, 1 + j);
                coflows.add(coflow);
                reusable.coflow(coflow);
                int n = round == 3 && j == 0 ? 1500 : 1 + rnd.nextInt(40); // round 3 outgrows the shared buffers
                Columns col = new Columns(rnd, n);
                for (int k = 0; k < n; k++) {
                    flows.add(col.flow(nextId + k, coflow.id(), k));
                }
                if (round % 2 == 0) {
                    reusable.flowRange(nextId, 0, n, col.src, col.dst, col.size, col.sent, col.done, col.rate, col.rate);
                } else {
                    for (int k = 0; k < n; k++) {
                        reusable.flow(nextId + k, col.src[k], col.dst[k], col.size[k], col.sent[k], col.done[k],
                                col.rate[k], col.rate[k]);
                    }
                }
                nextId += n;
            }
            ClusterState revised = reusable.build();
            if (round == 1) {
                continue; // nothing read: the next revision's sums are out of date on the ports of both rounds
            }
            ClusterState.Builder expected = ClusterState.builder(NET).now(now).coflows(coflows);
            expected.flows(flows);
            assertSameState(expected.build(), revised);
        }
    }

    /**
     * A revision changes the values of a state a reusable builder built and may append coflows after its last one;
     * misuse and bad values are rejected with the flow named.
     */
    @Test
    void revisionRejectsWhatItCannotDo() {
        assertThrows(IllegalStateException.class, () -> ColumnarStateBuilder.reusable(NET).revise(1.0));
        ColumnarStateBuilder oneShot = new ColumnarStateBuilder(NET, 1, 1);
        oneShot.coflow(new Coflow(CoflowId.of(1), 0.0, 1.0)).flow(5, 0, 1, 10, 0, false, Double.NaN, Double.NaN);
        oneShot.build();
        assertThrows(IllegalStateException.class, () -> oneShot.revise(1.0));
        ColumnarStateBuilder reusable = ColumnarStateBuilder.reusable(NET);
        assertThrows(IllegalStateException.class, () -> reusable.reviseFlow(0, 1, false, 1, 1));
        reusable.begin().coflow(new Coflow(CoflowId.of(1), 0.0, 1.0))
                .flow(5, 0, 1, 10, 0, false, Double.NaN, Double.NaN);
        reusable.build();
        reusable.revise(2.0);
        rejects(() -> reusable.coflow(new Coflow(CoflowId.of(0), 0.0, 1.0)), "coflow-0", "(arrival, id) order");
        IllegalStateException noCoflow = assertThrows(IllegalStateException.class,
                () -> reusable.flow(6, 0, 1, 10, 0, false, Double.NaN, Double.NaN));
        assertTrue(noCoflow.getMessage().contains("only to a coflow the revision appended"), noCoflow.getMessage());
        rejects(() -> reusable.reviseFlow(1, 1, false, 1, 1), "flow index 1", "1 flows");
        rejects(() -> reusable.reviseFlow(0, -1, false, 1, 1), "flow-5", "coflow-1", "sent");
        // A rejected value ends the revision: build() builds the whole state, and a new revision can follow.
        assertThrows(IllegalStateException.class, () -> reusable.reviseFlow(0, 1, false, 1, 1));
        assertEquals(10.0, reusable.build().remaining(0));
        reusable.revise(3.0);
        rejects(() -> reusable.reviseFlow(0, 1, false, Double.POSITIVE_INFINITY, 1), "flow-5", "measured rate");
        reusable.build();
        reusable.revise(4.0).reviseFlow(0, 4, false, 2, 2);
        assertEquals(6.0, reusable.build().remaining(0));
        // In bulk: the same checks, naming the flow.
        reusable.revise(5.0);
        rejects(() -> reusable.reviseFlows(new int[] {1}, 1, new int[] {0, 0}, new double[] {1}, new boolean[1],
                new double[] {1}), "flow index 1", "1 flows");
        rejects(() -> reusable.reviseFlows(new int[] {0}, 1, new int[] {0}, new double[] {Double.NaN},
                new boolean[1], new double[] {1}), "flow-5", "coflow-1", "sent");
        assertThrows(IllegalStateException.class, () -> reusable.reviseFlows(new int[] {0}, 1, new int[] {0},
                new double[] {1}, new boolean[1], new double[] {1}));
        reusable.build();
        reusable.revise(6.0).reviseFlows(new int[] {0}, 1, new int[] {0}, new double[] {7}, new boolean[1],
                new double[] {2});
        assertEquals(3.0, reusable.build().remaining(0));
    }

    /** Whole coflows copied from arrays give the state that flow-by-flow calls give, and the same errors. */
    @Test
    void flowRangeIsFlowByFlow() {
        Random rnd = new Random(11);
        int n = 40;
        Columns col = new Columns(rnd, n);
        int[] src = col.src;
        int[] dst = col.dst;
        double[] size = col.size;
        double[] sent = col.sent;
        boolean[] done = col.done;
        double[] rate = col.rate;
        int[] starts = {0, 7, 8, 25, 40}; // four coflows, one of a single flow
        ColumnarStateBuilder bulk = ColumnarStateBuilder.reusable(NET).begin().now(3.0);
        ColumnarStateBuilder single = new ColumnarStateBuilder(NET, 4, 1).now(3.0);
        for (int c = 0; c + 1 < starts.length; c++) {
            Coflow coflow = new Coflow(CoflowId.of(c + 1), c, 1);
            bulk.coflow(coflow);
            single.coflow(coflow);
            bulk.flowRange(100 + starts[c], starts[c], starts[c + 1] - starts[c], src, dst, size, sent, done, rate,
                    rate);
            for (int i = starts[c]; i < starts[c + 1]; i++) {
                single.flow(100 + i, src[i], dst[i], size[i], sent[i], done[i], rate[i], rate[i]);
            }
        }
        ClusterState expected = single.build();
        assertSameState(expected, bulk.build());
        sent[30] = -1;
        ColumnarStateBuilder bad = new ColumnarStateBuilder(NET, 1, 1).coflow(Coflow.of(1, 0));
        rejects(() -> bad.flowRange(100, 0, n, src, dst, size, sent, done, rate, rate), "flow-130", "sent", "-1.0");
        sent[30] = 0;
        dst[12] = 9;
        rejects(() -> new ColumnarStateBuilder(NET, 1, 1).coflow(Coflow.of(1, 0))
                .flowRange(100, 0, n, src, dst, size, sent, done, rate, rate), "flow-112", "host", "5 hosts");
        dst[12] = 0;
        ColumnarStateBuilder after = new ColumnarStateBuilder(NET, 1, 1).coflow(Coflow.of(1, 0));
        after.flowRange(100, 0, 5, src, dst, size, sent, done, rate, rate);
        rejects(() -> after.flowRange(104, 5, 5, src, dst, size, sent, done, rate, rate), "flow-104", "ascend");
    }

    @Test
    void hiddenViewHidesSizesInColumnsToo() {
        ClusterState s = new ColumnarStateBuilder(NET, 1, 1).coflow(Coflow.of(1, 0))
                .flow(1, 0, 1, 500, 100, false, Double.NaN, Double.NaN).build();
        ClusterState hidden = s.viewFor(EnumSet.noneOf(Info.class));
        assertFalse(hidden.sizesVisible());
        assertEquals(400.0, s.remaining(0));
        assertThrows(HiddenInformationException.class, () -> hidden.remaining(0));
        assertThrows(HiddenInformationException.class, () -> hidden.flow(0).size());
        assertEquals(100.0, hidden.sent(0));
        assertTrue(hidden.hasSameFlowsAs(s));
    }

    @Test
    void badInputIsRejectedWithTheOffenderNamed() {
        rejects(() -> new ColumnarStateBuilder(NET, 1, 1).flow(1, 0, 1, 1, 0, false, Double.NaN, Double.NaN),
                "flow-1", "before any coflow");
        rejects(() -> new ColumnarStateBuilder(NET, 2, 1).coflow(Coflow.of(2, 5.0)).coflow(Coflow.of(1, 5.0)),
                "coflow-1", "(arrival, id) order");
        ColumnarStateBuilder b = new ColumnarStateBuilder(NET, 1, 2).coflow(Coflow.of(1, 0));
        b.flow(5, 0, 1, 10, 0, false, Double.NaN, Double.NaN);
        rejects(() -> b.flow(5, 0, 1, 10, 0, false, Double.NaN, Double.NaN), "flow-5", "ascend");
        rejects(() -> b.flow(6, 0, 9, 10, 0, false, Double.NaN, Double.NaN), "flow-6", "host 0->9", "5 hosts");
        rejects(() -> b.flow(7, 0, 1, -1, 0, false, Double.NaN, Double.NaN), "flow-7", "size", "-1.0");
        rejects(() -> b.flow(8, 0, 1, 10, Double.NaN, false, Double.NaN, Double.NaN), "flow-8", "sent", "NaN");
        rejects(() -> b.flow(9, 0, 1, 10, 0, false, Double.POSITIVE_INFINITY, Double.NaN), "flow-9",
                "measured rate");
        b.build();
        assertThrows(IllegalStateException.class, b::build);
    }
}
