package io.courier.scheduler.testing;

import io.courier.scheduler.model.Coflow;
import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.Flow;
import io.courier.scheduler.model.FlowId;
import io.courier.scheduler.model.Network;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small hand-written workload for exact tests: named hosts (each with an up and a down port), named
 * coflows with arrival times and weights, labelled flows with sizes. Coflow ids follow declaration
 * order (1, 2, …) and flow ids are global and sequential, so "smaller id" ties are declaration order.
 */
public final class Scenario {
    final Network network;
    final List<Coflow> coflows;
    final List<Flow> flows;
    final Map<String, CoflowId> coflowByName;
    final Map<CoflowId, String> coflowName;
    final Map<String, FlowId> flowByLabel;
    final Map<FlowId, String> flowLabel;
    final Map<String, Integer> hostByName;

    private Scenario(Builder b) {
        Network.Builder nb = Network.builder();
        for (String h : b.hosts.keySet()) {
            double cap = b.capacities.containsKey(h) ? b.capacities.get(h) : b.defaultCapacity;
            nb.host(h, cap, cap);
        }
        for (Map.Entry<String, Double> l : b.links.entrySet()) {
            nb.link(l.getKey(), l.getValue());
        }
        this.network = nb.build();
        this.coflows = Collections.unmodifiableList(new ArrayList<>(b.coflows));
        this.flows = Collections.unmodifiableList(new ArrayList<>(b.flows));
        this.coflowByName = b.coflowByName;
        this.coflowName = b.coflowName;
        this.flowByLabel = b.flowByLabel;
        this.flowLabel = b.flowLabel;
        this.hostByName = b.hosts;
    }

    /** A scenario whose ports all have capacity 1 unit/s unless set otherwise. */
    public static Builder unitCapacity() {
        return new Builder(1.0);
    }

    public static Builder withCapacity(double capacity) {
        return new Builder(capacity);
    }

    public Network network() {
        return network;
    }

    public List<Coflow> coflows() {
        return coflows;
    }

    public List<Flow> flows() {
        return flows;
    }

    public CoflowId coflow(String name) {
        CoflowId id = coflowByName.get(name);
        if (id == null) {
            throw new IllegalArgumentException("no coflow named " + name + " in " + coflowByName.keySet());
        }
        return id;
    }

    public FlowId flow(String label) {
        FlowId id = flowByLabel.get(label);
        if (id == null) {
            throw new IllegalArgumentException("no flow labelled " + label + " in " + flowByLabel.keySet());
        }
        return id;
    }

    public String nameOf(CoflowId id) {
        return coflowName.get(id);
    }

    public String labelOf(FlowId id) {
        return flowLabel.get(id);
    }

    public int host(String name) {
        Integer h = hostByName.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host named " + name + " in " + hostByName.keySet());
        }
        return h;
    }

    /** Declares hosts lazily as flows name them; every name is one host with both ports. */
    public static final class Builder {
        private final double defaultCapacity;
        private final Map<String, Integer> hosts = new LinkedHashMap<>();
        private final Map<String, Double> capacities = new LinkedHashMap<>();
        private final Map<String, Double> links = new LinkedHashMap<>();
        private final List<Coflow> coflows = new ArrayList<>();
        private final List<Flow> flows = new ArrayList<>();
        private final Map<String, CoflowId> coflowByName = new LinkedHashMap<>();
        private final Map<CoflowId, String> coflowName = new LinkedHashMap<>();
        private final Map<String, FlowId> flowByLabel = new LinkedHashMap<>();
        private final Map<FlowId, String> flowLabel = new LinkedHashMap<>();
        private String current;
        private int flowsInCurrent;

        private Builder(double defaultCapacity) {
            this.defaultCapacity = defaultCapacity;
        }

        /** Declares hosts up front (fixes their indices in this order). */
        public Builder hosts(String... names) {
            for (String n : names) {
                hostIndex(n);
            }
            return this;
        }

        public Builder hostCapacity(String name, double capacity) {
            hostIndex(name);
            capacities.put(name, capacity);
            return this;
        }

        /** An extra link (index = declaration order) that flows may cross with {@link #flowVia}. */
        public Builder link(String name, double capacity) {
            links.put(name, capacity);
            return this;
        }

        public Builder coflow(String name, double arrival) {
            return coflow(name, arrival, 1.0);
        }

        public Builder coflow(String name, double arrival, double weight) {
            CoflowId id = CoflowId.of(coflows.size() + 1);
            coflows.add(new Coflow(id, arrival, weight));
            coflowByName.put(name, id);
            coflowName.put(id, name);
            current = name;
            flowsInCurrent = 0;
            return this;
        }

        /** A flow of the last declared coflow, labelled {@code <coflow><k>} (A1, A2, …). */
        public Builder flow(String src, String dst, double size) {
            return flow(current + (flowsInCurrent + 1), src, dst, size);
        }

        public Builder flow(String label, String src, String dst, double size) {
            return flowVia(label, src, dst, size);
        }

        /** A labelled flow that also crosses the named extra links. */
        public Builder flowVia(String label, String src, String dst, double size, String... viaLinks) {
            if (current == null) {
                throw new IllegalStateException("declare a coflow before its flows");
            }
            int[] path = new int[viaLinks.length];
            List<String> linkNames = new ArrayList<>(links.keySet());
            for (int k = 0; k < viaLinks.length; k++) {
                path[k] = linkNames.indexOf(viaLinks[k]);
                if (path[k] < 0) {
                    throw new IllegalArgumentException("unknown link " + viaLinks[k]);
                }
            }
            FlowId id = FlowId.of(flows.size() + 1);
            flows.add(Flow.builder(id, coflowByName.get(current), hostIndex(src), hostIndex(dst))
                    .size(size).path(path).build());
            flowByLabel.put(label, id);
            flowLabel.put(id, label);
            flowsInCurrent++;
            return this;
        }

        private int hostIndex(String name) {
            Integer h = hosts.get(name);
            if (h == null) {
                h = hosts.size();
                hosts.put(name, h);
            }
            return h;
        }

        public Scenario build() {
            return new Scenario(this);
        }
    }
}
