package io.courier.shuffle.proxy.schedule;

import io.courier.scheduler.model.FlowId;

/**
 * Ties a scheduler flow to what the proxy sees: the flow {@code id} of the decision carries the bytes of
 * {@code job} sent from this node to the proxy {@code peer} (its node id). All streams of that job to that
 * peer share the flow's rate or rank.
 */
public final class FlowBinding {
    private final FlowId id;
    private final String job;
    private final String peer;
    /** {@link SendPlan#key} of job and peer, made once: the scheduler looks the flow up at every rebuild. */
    private final String flowKey;

    public FlowBinding(FlowId id, String job, String peer) {
        if (id == null || job == null || peer == null) {
            throw new IllegalArgumentException("flow binding needs a flow id, a job and a peer");
        }
        this.id = id;
        this.job = job;
        this.peer = peer;
        this.flowKey = SendPlan.key(job, peer);
    }

    public FlowId id() {
        return id;
    }

    public String job() {
        return job;
    }

    public String peer() {
        return peer;
    }

    String flowKey() {
        return flowKey;
    }

    @Override
    public String toString() {
        return id + "=" + job + "->" + peer;
    }
}
