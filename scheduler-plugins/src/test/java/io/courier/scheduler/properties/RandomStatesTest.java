package io.courier.scheduler.properties;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.Network;
import java.util.List;
import java.util.function.Predicate;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * The generator keeps its promises: every state is valid and within the stated ranges, and the
 * interesting shapes (extra links, link estimates below capacity, finished flows, equal arrivals, varied
 * capacities, several coflows) actually occur, so the scheduler properties do not pass vacuously.
 */
class RandomStatesTest {

    @Provide
    Arbitrary<GeneratedState> states() {
        return RandomStates.states();
    }

    @Property(tries = 300)
    void generatedStatesAreValidAndVaried(@ForAll("states") GeneratedState g) {
        ClusterState s = g.state();
        Network n = s.network();
        check(n.hostCount() >= 2 && n.hostCount() <= 12, "2..12 hosts", g);
        check(n.linkCount() <= 3, "0..3 extra links", g);
        check(s.coflowCount() >= 1 && s.coflowCount() <= 8, "1..8 coflows", g);
        boolean varied = false;
        for (int p = 0; p < n.resourceCount(); p++) {
            check(n.capacity(p) > 0, "positive capacities", g);
            varied |= n.capacity(p) != n.capacity(0);
        }
        boolean estimateBelowCapacity = false;
        for (int l = 0; l < n.linkCount(); l++) {
            double cap = n.capacity(n.link(l));
            check(s.linkEstimate(l) >= 0 && s.linkEstimate(l) <= cap, "0 <= B(l) <= cap(l)", g);
            estimateBelowCapacity |= s.linkEstimate(l) < cap;
        }
        boolean tie = false;
        boolean anyFinished = false;
        boolean crossesLink = false;
        for (int c = 0; c < s.coflowCount(); c++) {
            Coflow co = s.coflow(c);
            check(co.arrival() <= s.now(), "arrival <= now", g);
            check(co.weight() >= 0.5 && co.weight() <= 5, "weights in [0.5, 5]", g);
            check(s.flowsOf(c).length >= 1 && s.flowsOf(c).length <= 15, "1..15 flows per coflow", g);
            check(s.unfinishedFlowsOf(c).length >= 1, "an unfinished flow in every coflow", g);
            tie |= c > 0 && s.coflow(c - 1).arrival() == co.arrival();
            for (int f : s.flowsOf(c)) {
                Flow fl = s.flow(f);
                check(fl.size() > 0, "sizes > 0", g);
                if (fl.finished()) {
                    check(fl.sent() == fl.size(), "finished flows have sent = size", g);
                    anyFinished = true;
                } else {
                    check(fl.sent() >= 0 && fl.sent() < fl.size(), "unfinished flows have 0 <= sent < size", g);
                }
                crossesLink |= fl.path().length > 0;
            }
        }
        Statistics.label("extra links").collect(n.linkCount() > 0);
        Statistics.label("a flow crosses a link").collect(crossesLink);
        Statistics.label("an estimate below capacity").collect(estimateBelowCapacity);
        Statistics.label("varied capacities").collect(varied);
        Statistics.label("equal arrivals").collect(tie);
        Statistics.label("a finished flow").collect(anyFinished);
        Statistics.label("several coflows").collect(s.coflowCount() > 1);
        for (String label : new String[] {"extra links", "a flow crosses a link", "an estimate below capacity",
                "varied capacities", "equal arrivals", "a finished flow", "several coflows"}) {
            Statistics.label(label).coverage(cov -> cov.check(true).percentage((Predicate<Double>) p -> p >= 15));
        }
    }

    /** Resizing changes exactly the sizes of unfinished flows, and keeps them above what they sent. */
    @Property(tries = 100)
    void resizingTouchesOnlyUnfinishedSizes(@ForAll("states") GeneratedState g,
            @ForAll @Size(min = 1, max = 16) List<@DoubleRange(min = 0.01, max = 100.0) @Scale(4) Double> factors) {
        ClusterState a = g.state();
        ClusterState b = g.withUnfinishedSizesScaled(factors);
        check(a.flowCount() == b.flowCount() && a.coflowCount() == b.coflowCount(), "same flows and coflows", g);
        for (int i = 0; i < a.flowCount(); i++) {
            Flow x = a.flow(i);
            Flow y = b.flow(i);
            check(x.id().equals(y.id()) && x.sent() == y.sent() && x.finished() == y.finished()
                    && x.src() == y.src() && x.dst() == y.dst(), "only sizes change", g);
            if (x.finished()) {
                check(x.size() == y.size(), "finished sizes unchanged", g);
            } else {
                check(y.size() > y.sent(), "new sizes stay above sent", g);
            }
        }
    }

    private static void check(boolean ok, String rule, GeneratedState g) {
        if (!ok) {
            throw new AssertionError("generator broke its rule '" + rule + "' in " + g);
        }
    }
}
