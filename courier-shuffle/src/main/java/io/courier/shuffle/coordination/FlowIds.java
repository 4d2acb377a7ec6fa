package io.courier.shuffle.coordination;

import io.courier.scheduler.model.CoflowId;
import io.courier.scheduler.model.FlowId;

import java.util.HashMap;
import java.util.Map;

/**
 * Stable local ids for the scheduler library's types: one {@link CoflowId} per job and one {@link FlowId} per
 * (job, peer) this node sends to, so that successive plans name the same flow the same way. Local to this proxy
 * (the coordinator has ids of its own). Not thread-safe: confined to {@link ProxyCoordination}'s planning thread.
 */
final class FlowIds {
    private final Map<String, CoflowId> coflows = new HashMap<>();
    private final Map<String, FlowId> flows = new HashMap<>();
    private long nextCoflow = 1;
    private long nextFlow = 1;
    /** Bumped when ids are forgotten: a forgotten job seen again gets new ids, so plans built before may differ. */
    private long forgets;

    CoflowId coflow(String job) {
        CoflowId id = coflows.get(job);
        if (id == null) {
            id = CoflowId.of(nextCoflow++);
            coflows.put(job, id);
        }
        return id;
    }

    FlowId flow(String job, String peer) {
        String k = job + "\u0000" + peer;
        FlowId id = flows.get(k);
        if (id == null) {
            id = FlowId.of(nextFlow++);
            flows.put(k, id);
        }
        return id;
    }

    void forgetJob(String job) {
        boolean forgot = coflows.remove(job) != null;
        String prefix = job + "\u0000";
        if (flows.keySet().removeIf(k -> k.startsWith(prefix)) || forgot) {
            forgets++;
        }
    }

    /**
     * How many times ids were forgotten. Ids are only ever added otherwise, and an added id never renames an
     * existing one, so an unchanged count means every id handed out before is still the same.
     */
    long forgets() {
        return forgets;
    }
}
