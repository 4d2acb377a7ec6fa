package io.courier.scheduler.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The big-switch fabric (SCHEDULERS.md §0.1): every host has an up port (host→fabric, the sender side)
 * and a down port (fabric→host, the receiver side), plus optional extra links. Immutable.
 *
 * <p>Every port and link is a <em>resource</em> with a dense index, which the primitives use for
 * array-based bookkeeping: {@code up(h) = h}, {@code down(h) = H + h}, {@code link(l) = 2H + l}.
 * Capacities are in bytes/s.
 */
public final class Network {
    private final String[] hostNames;
    private final String[] linkNames;
    private final double[] capacity;
    private final double maxCapacity;

    private Network(List<String> hosts, List<Double> up, List<Double> down, List<String> links,
            List<Double> linkCaps) {
        int h = hosts.size();
        this.hostNames = hosts.toArray(new String[0]);
        this.linkNames = links.toArray(new String[0]);
        this.capacity = new double[2 * h + links.size()];
        double max = 0;
        for (int i = 0; i < h; i++) {
            capacity[i] = up.get(i);
            capacity[h + i] = down.get(i);
        }
        for (int l = 0; l < links.size(); l++) {
            capacity[2 * h + l] = linkCaps.get(l);
        }
        for (double c : capacity) {
            max = Math.max(max, c);
        }
        this.maxCapacity = max;
    }

    /** {@code hosts} hosts named h0, h1, … whose up and down ports all have {@code capacity}. */
    public static Network uniform(int hosts, double capacity) {
        Builder b = builder();
        for (int i = 0; i < hosts; i++) {
            b.host("h" + i, capacity, capacity);
        }
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int hostCount() {
        return hostNames.length;
    }

    public int linkCount() {
        return linkNames.length;
    }

    public int resourceCount() {
        return capacity.length;
    }

    public String hostName(int host) {
        return hostNames[host];
    }

    public String linkName(int link) {
        return linkNames[link];
    }

    public int up(int host) {
        return host;
    }

    public int down(int host) {
        return hostNames.length + host;
    }

    public int link(int link) {
        return 2 * hostNames.length + link;
    }

    public boolean isLink(int resource) {
        return resource >= 2 * hostNames.length;
    }

    public double capacity(int resource) {
        return capacity[resource];
    }

    /** A fresh array of all capacities, indexed by resource; callers own and may modify it. */
    public double[] capacities() {
        return capacity.clone();
    }

    public double maxCapacity() {
        return maxCapacity;
    }

    /** Rate tolerance of SCHEDULERS.md §0.4: {@code 1e-9 · max cap}. */
    public double rateEpsilon() {
        return 1e-9 * Math.max(maxCapacity, 1e-300);
    }

    /** A readable name of a resource for error messages and reports: up(h3), down(h3), link(L1S1). */
    public String resourceName(int resource) {
        int h = hostNames.length;
        if (resource < h) {
            return "up(" + hostNames[resource] + ")";
        }
        if (resource < 2 * h) {
            return "down(" + hostNames[resource - h] + ")";
        }
        return "link(" + linkNames[resource - 2 * h] + ")";
    }

    /** Builds a {@link Network}; capacities must be finite and {@code >= 0}. */
    public static final class Builder {
        private final List<String> hosts = new ArrayList<>();
        private final List<Double> up = new ArrayList<>();
        private final List<Double> down = new ArrayList<>();
        private final List<String> links = new ArrayList<>();
        private final List<Double> linkCaps = new ArrayList<>();

        public Builder host(String name, double upCapacity, double downCapacity) {
            check("up(" + name + ")", upCapacity);
            check("down(" + name + ")", downCapacity);
            hosts.add(name);
            up.add(upCapacity);
            down.add(downCapacity);
            return this;
        }

        public Builder link(String name, double linkCapacity) {
            check("link(" + name + ")", linkCapacity);
            links.add(name);
            linkCaps.add(linkCapacity);
            return this;
        }

        private static void check(String what, double c) {
            if (!Double.isFinite(c) || c < 0) {
                throw new IllegalArgumentException("capacity of " + what + " must be a finite number >= 0, got " + c);
            }
        }

        public Network build() {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("a network needs at least one host");
            }
            return new Network(hosts, up, down, links, linkCaps);
        }
    }
}
