package io.courier.scheduler.primitives;

import io.courier.scheduler.model.ClusterState;
import io.courier.scheduler.testing.Scenario;
import io.courier.scheduler.testing.Snapshot;

/** Small lookups for hand-checked primitive tests: flow indices by label and resource indices by host. */
final class Hand {
    static final double EPS = 1e-9;

    private final Scenario scenario;
    private final ClusterState state;

    Hand(Scenario scenario, ClusterState state) {
        this.scenario = scenario;
        this.state = state;
    }

    /** The scenario at t = 0 with nothing sent. */
    static Hand of(Scenario scenario) {
        return new Hand(scenario, Snapshot.of(scenario).build());
    }

    ClusterState state() {
        return state;
    }

    int flow(String label) {
        return Snapshot.index(state, scenario, label);
    }

    int[] flows(String... labels) {
        int[] out = new int[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = flow(labels[i]);
        }
        return out;
    }

    int up(String host) {
        return state.network().up(scenario.host(host));
    }

    int down(String host) {
        return state.network().down(scenario.host(host));
    }

    int link(int l) {
        return state.network().link(l);
    }

    /** Unfinished flows of the named coflow, ascending flow id. */
    int[] coflow(String name) {
        return state.unfinishedFlowsOf(state.indexOf(scenario.coflow(name)));
    }

    double[] fullCapacity() {
        return state.residualCapacities(false);
    }

    double[] noRates() {
        return new double[state.flowCount()];
    }
}
