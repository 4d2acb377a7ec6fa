package io.courier.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Flow;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The synthetic snapshot has the shape the benchmark claims, and it is the same on every build. */
class SnapshotShapeTest {
    private static final BenchmarkSnapshot SYNTHETIC = Snapshots.synthetic(Snapshots.SEED);

    @Test
    void syntheticSnapshotHasFbScale() {
        ClusterState s = SYNTHETIC.state();
        assertEquals(150, s.network().hostCount());
        assertEquals(Snapshots.PORT_CAPACITY, s.network().capacity(s.network().up(0)), 0);
        assertTrue(s.coflowCount() >= 80 && s.coflowCount() <= 120, SYNTHETIC.describe());
        assertTrue(s.flowCount() >= 10_000 && s.flowCount() <= 100_000, SYNTHETIC.describe());
        assertTrue(SYNTHETIC.unfinishedFlowCount() >= 5_000, SYNTHETIC.describe());
    }

    @Test
    void flowsHaveMixedProgressAndEveryCoflowIsUnfinished() {
        ClusterState s = SYNTHETIC.state();
        int untouched = 0;
        int partial = 0;
        int finished = 0;
        for (Flow f : s.flows()) {
            assertTrue(f.sent() >= 0 && f.sent() <= f.size(), f.toString());
            if (f.finished()) {
                assertEquals(f.size(), f.sent(), 0, f.toString());
                assertEquals(0, f.measuredRate(), 0);
                finished++;
            } else {
                assertTrue(f.measuredRate() > 0 && f.measuredRate() <= Snapshots.PORT_CAPACITY, f.toString());
                assertEquals(f.measuredRate(), f.lastDesiredRate(), 0);
                if (f.sent() == 0) {
                    untouched++;
                } else {
                    partial++;
                }
            }
        }
        assertTrue(finished > 0 && partial > 0 && untouched > 0,
                "finished " + finished + ", partial " + partial + ", untouched " + untouched);
        Set<Double> attained = new HashSet<>();
        Set<Double> weights = new HashSet<>();
        for (int c = 0; c < s.coflowCount(); c++) {
            assertTrue(s.unfinishedFlowsOf(c).length > 0, s.coflow(c) + " has no unfinished flow");
            attained.add(s.sentBy(c));
            weights.add(s.coflow(c).weight());
        }
        assertTrue(attained.size() > s.coflowCount() / 2, "attained service should differ between coflows");
        assertEquals(5, weights.size(), "weights 1..5");
    }

    @Test
    void snapshotIsDeterministicForASeed() {
        ClusterState again = Snapshots.synthetic(Snapshots.SEED).state();
        assertEquals(SYNTHETIC.state().flows(), again.flows());
        assertEquals(SYNTHETIC.state().now(), again.now(), 0);
        assertTrue(!Snapshots.synthetic(Snapshots.SEED + 1).state().flows().equals(again.flows()));
    }
}
