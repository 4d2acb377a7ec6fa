package io.courier.shuffle.proxy.schedule;

/**
 * What the sender does on its connection(s) to one peer: whether the unified flow was started by
 * SelectAndSplit ({@code running}), its pacing rate in bytes/s ({@code Double.POSITIVE_INFINITY} = not
 * paced), and how many network flows SelectAndSplit assigned to the pair ({@code >1} after a split).
 * Immutable; equal plans ask the same of a connection (the scheduler tells a connection only when its peer's
 * plan or classes differ).
 */
public final class PeerPlan {
    /** A pair no decision covers: runs unpaced on one connection. */
    public static final PeerPlan UNPLANNED = new PeerPlan(true, Double.POSITIVE_INFINITY, 1);

    private final boolean running;
    private final double rate;
    private final int flows;

    public PeerPlan(boolean running, double rate, int flows) {
        this.running = running;
        this.rate = rate;
        this.flows = flows;
    }

    public boolean running() {
        return running;
    }

    public double rate() {
        return rate;
    }

    public int flows() {
        return flows;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PeerPlan)) {
            return false;
        }
        PeerPlan p = (PeerPlan) o;
        return p.running == running && Double.compare(p.rate, rate) == 0 && p.flows == flows;
    }

    @Override
    public int hashCode() {
        return (Boolean.hashCode(running) * 31 + Double.hashCode(rate)) * 31 + flows;
    }

    @Override
    public String toString() {
        return "PeerPlan(" + (running ? "running" : "waiting") + ", rate=" + rate + ", flows=" + flows + ")";
    }
}
