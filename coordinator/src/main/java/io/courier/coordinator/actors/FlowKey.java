package io.courier.coordinator.actors;

/** Identity of a unified flow: (job, source node, destination node). Immutable. */
final class FlowKey {
    final String jobId;
    final String src;
    final String dst;
    private final int hash;

    FlowKey(String jobId, String src, String dst) {
        this.jobId = jobId;
        this.src = src;
        this.dst = dst;
        this.hash = (jobId.hashCode() * 31 + src.hashCode()) * 31 + dst.hashCode();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlowKey)) {
            return false;
        }
        FlowKey k = (FlowKey) o;
        return hash == k.hash && jobId.equals(k.jobId) && src.equals(k.src) && dst.equals(k.dst);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return jobId + " " + src + "->" + dst;
    }
}
