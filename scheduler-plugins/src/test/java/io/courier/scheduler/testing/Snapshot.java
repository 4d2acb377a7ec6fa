package io.courier.scheduler.testing;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One {@link ClusterState} taken from a {@link Scenario} at a chosen instant, with hand-set bytes sent and
 * finished flows, for tests of primitives and enforcers that need a state in the middle of a run
 * (e.g. SCHEDULERS.md T-VARYS-2 at t = 2). By default every coflow of the scenario is active.
 */
public final class Snapshot {
    private final Scenario scenario;
    private double now;
    private final Map<FlowId, Double> sent = new HashMap<>();
    private final Set<FlowId> finished = new HashSet<>();
    private Set<String> active;

    private Snapshot(Scenario scenario) {
        this.scenario = scenario;
    }

    public static Snapshot of(Scenario scenario) {
        return new Snapshot(scenario);
    }

    public Snapshot now(double time) {
        this.now = time;
        return this;
    }

    /** Bytes the labelled flow has sent so far. */
    public Snapshot sent(String label, double bytes) {
        sent.put(scenario.flow(label), bytes);
        return this;
    }

    /** The labelled flow is complete: it has sent its whole size. */
    public Snapshot finished(String label) {
        finished.add(scenario.flow(label));
        return this;
    }

    /** Only these coflows are active (the others have not arrived or are done). */
    public Snapshot active(String... coflows) {
        active = new LinkedHashSet<>();
        for (String c : coflows) {
            scenario.coflow(c);
            active.add(c);
        }
        return this;
    }

    public ClusterState build() {
        ClusterState.Builder b = ClusterState.builder(scenario.network()).now(now);
        for (Coflow c : scenario.coflows()) {
            if (active != null && !active.contains(scenario.nameOf(c.id()))) {
                continue;
            }
            b.coflow(c);
            for (Flow f : scenario.flows()) {
                if (!f.coflow().equals(c.id())) {
                    continue;
                }
                Flow.Builder fb = f.toBuilder();
                if (finished.contains(f.id())) {
                    fb.sent(f.size()).finished(true);
                } else if (sent.containsKey(f.id())) {
                    fb.sent(sent.get(f.id()));
                }
                b.flow(fb.build());
            }
        }
        return b.build();
    }

    /** Index of a labelled flow in a state built from this scenario. */
    public static int index(ClusterState state, Scenario scenario, String label) {
        int i = state.indexOf(scenario.flow(label));
        if (i < 0) {
            throw new IllegalArgumentException("flow " + label + " is not part of " + state);
        }
        return i;
    }
}
